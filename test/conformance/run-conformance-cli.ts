/**
 * Runs the `@modelcontextprotocol/conformance` CLI (with the Node 20 `fs.globSync` preload) and
 * collects what it prints. Its process group is killed when it ends (anything left is a stray) or,
 * at the latest, after `guardMs`, so no scenario server outlives the test.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPOSITORY = path.join(here, "..", "..");
const CONFORMANCE_CLI = path.join(REPOSITORY, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const PRELOAD = path.join(here, "node20-globsync.mjs");

/** One graded check, as the CLI writes it to `checks.json`. */
export interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
  details?: Record<string, unknown>;
}

/**
 * @example
 * const report = await runConformanceCli(["server", "--suite", "all", "--url", url, "--output-dir", dir], 115_000);
 */
export function runConformanceCli(args: string[], guardMs: number): Promise<string> {
  const cli = spawn(process.execPath, ["--import", PRELOAD, CONFORMANCE_CLI, ...args], { cwd: REPOSITORY, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let report = "";
  cli.stdout.on("data", (chunk: Buffer) => (report += chunk.toString()));
  cli.stderr.on("data", (chunk: Buffer) => (report += chunk.toString()));
  const killGroup = () => {
    try {
      process.kill(-cli.pid!, "SIGKILL");
    } catch {
      // Already gone.
    }
  };
  const guard = setTimeout(killGroup, guardMs);
  return new Promise((resolve, reject) => {
    cli.once("error", reject);
    cli.once("close", () => {
      clearTimeout(guard);
      killGroup();
      resolve(report);
    });
  });
}
