/** Runs the built `toolexec` executable (package.json "bin") as a real process, as a user would. */
import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { TOOLEXEC_BIN } from "../helpers/toolexec-bin.mjs";

export const BIN = TOOLEXEC_BIN;

/** test/cli/fixtures/cli-server.mjs: a stdio MCP server shaped by its environment. */
export const CLI_SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "cli-server.mjs");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  durationMs: number;
}

export function runCli(args: string[], options: { input?: string; cwd?: string } = {}): Promise<CliRun> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, ...args], { cwd: options.cwd, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr, durationMs: performance.now() - started });
    });
    child.stdin?.end(options.input);
  });
}

/** An mcp.json entry that runs the fixture server with `env`. */
export function fixtureServer(env: Record<string, string> = {}) {
  return { command: process.execPath, args: [CLI_SERVER], env };
}
