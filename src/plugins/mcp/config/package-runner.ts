/**
 * Package runners (`npx -y`, `uvx`, `pipx run`, `bunx`) download a server on its first start, which
 * can take far longer than a start-up: such servers get a first-start budget and are reported as
 * `installing` meanwhile, rather than failing or `connecting` for ever.
 */
import path from "node:path";

/** The first-start budget of a package runner's server when neither its entry nor the executor says. */
export const DEFAULT_INSTALL_TIMEOUT_MS = 120_000;

/** Runners recognized by their program alone; `pipx` only as `pipx run`. */
const RUNNERS = new Set(["npx", "pnpx", "bunx", "uvx"]);

/**
 * The runner `command args` starts a server through, or undefined when it starts the server directly.
 *
 * @example
 * packageRunnerOf("npx", ["-y", "@modelcontextprotocol/server-github"]); // "npx"
 * packageRunnerOf("pipx", ["run", "mcp-server-fetch"]); // "pipx run"
 * packageRunnerOf("node", ["server.js"]); // undefined
 */
export function packageRunnerOf(command: string, args: readonly string[]): string | undefined {
  const program = path.basename(command).replace(/\.(cmd|exe|bat)$/i, "").toLowerCase();
  if (RUNNERS.has(program)) return program;
  if (program === "pipx" && args[0] === "run") return "pipx run";
  return undefined;
}
