/**
 * Where the CLI's execution log lives, the same for the commands that write it (`tools call`,
 * `code exec`, `serve`) and for `toolexec logs`, which reads it:
 * 1. `--log-dir <dir>` (relative to the current folder);
 * 2. else, with `--root`: `<root>/.toolexec/logs`;
 * 3. else, when a config file is named (`--mcp-config`, `--tools-config`): a folder of its own under
 *    the user's state folder, `$XDG_STATE_HOME/toolexec/logs/<file name>-<hash of its absolute path>`
 *    (default `~/.local/state`), so a client that starts `toolexec serve --mcp-config …` from any
 *    folder (Claude Desktop starts it in `/`) logs to one place;
 * 4. else the project is the current folder: `./.toolexec/logs`.
 */
import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";
import type { FlagValues } from "./parse-command-line.js";

/** The project-relative default, as the library has it (`logDir`). */
export const PROJECT_LOG_DIR = ".toolexec/logs";

/** The user's state folder: `$XDG_STATE_HOME` when absolute, else `~/.local/state`. */
function stateHome(environment: NodeJS.ProcessEnv): string {
  const configured = environment.XDG_STATE_HOME;
  return configured && path.isAbsolute(configured) ? configured : path.join(os.homedir(), ".local", "state");
}

/**
 * The absolute log folder for these flags.
 *
 * @example
 * resolveLogDir({ "mcp-config": "claude.json" }, "/"); // "/home/me/.local/state/toolexec/logs/claude-3f9a0c1b77e2"
 */
export function resolveLogDir(values: FlagValues, cwd: string, environment: NodeJS.ProcessEnv = process.env): string {
  if (values["log-dir"] !== undefined) return path.resolve(cwd, values["log-dir"]);
  if (values.root !== undefined) return path.resolve(cwd, values.root, PROJECT_LOG_DIR);
  const named = values["mcp-config"] ?? values["tools-config"];
  if (named !== undefined) {
    const file = path.resolve(cwd, named);
    const tag = createHash("sha256").update(file).digest("hex").slice(0, 12);
    const stem = path.basename(file).replace(/\.[^.]*$/, "").replace(/[^A-Za-z0-9_.-]+/g, "_") || "config";
    return path.join(stateHome(environment), "toolexec", "logs", `${stem}-${tag}`);
  }
  return path.resolve(cwd, PROJECT_LOG_DIR);
}
