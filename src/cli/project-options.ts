/**
 * Which project files a command uses, from `--root`, `--tools-config`, `--mcp-config`, `--no-tools`
 * and `--no-mcp`. The library treats a missing tools.json or mcp.json as an error (a host that
 * expects one should hear about it); at the terminal a project with only one of them is normal, so
 * a missing default file is skipped. A file named on the command line must exist.
 */
import { statSync } from "node:fs";
import path from "node:path";
import type { FlagValues } from "./parse-command-line.js";
import { CliError, UsageError } from "./usage-error.js";
import { cliInvocation } from "../core/cli-invocation.js";

export interface ProjectSelection {
  /** Absolute project folder. */
  root: string;
  /** Absolute path of the tools config, or false for none. */
  toolsConfig: string | false;
  /** Absolute path of the MCP config, or false for none. */
  mcpConfig: string | false;
}

function kindOf(file: string): "file" | "folder" | "missing" {
  try {
    return statSync(file).isDirectory() ? "folder" : "file";
  } catch {
    return "missing";
  }
}

/** A file named by `flag`, resolved against the current folder as any command-line path is. */
function namedFile(flag: string, value: string, cwd: string): string {
  const file = path.resolve(cwd, value);
  const kind = kindOf(file);
  if (kind === "missing") throw new CliError(`${flag} ${value}: file not found at ${file}`);
  if (kind === "folder") throw new CliError(`${flag} ${value}: expected a file, got the folder ${file}`);
  return file;
}

/**
 * Resolve the flags once into absolute paths (or `false`). Throws `CliError` for a missing `--root`
 * folder or named file, and when the project has neither file; `UsageError` for contradictory flags.
 *
 * @example
 * selectProjectFiles({ root: "demo", "no-tools": true }, process.cwd()); // { root: "/…/demo", toolsConfig: false, mcpConfig: "/…/demo/mcp.json" }
 */
export function selectProjectFiles(values: FlagValues, cwd: string, command: string): ProjectSelection {
  if (values["no-tools"] && values["tools-config"] !== undefined) throw new UsageError("Give either --tools-config or --no-tools, not both", command);
  if (values["no-mcp"] && values["mcp-config"] !== undefined) throw new UsageError("Give either --mcp-config or --no-mcp, not both", command);
  const root = path.resolve(cwd, values.root ?? ".");
  const rootKind = kindOf(root);
  if (rootKind === "missing") throw new CliError(`Project folder not found: ${root}${values.root === undefined ? "" : ` (--root ${values.root})`}`);
  if (rootKind === "file") throw new CliError(`--root ${values.root}: expected a folder, got the file ${root}`);

  const pick = (disabled: boolean | undefined, flag: string, named: string | undefined, fallback: string): string | false => {
    if (disabled) return false;
    if (named !== undefined) return namedFile(flag, named, cwd);
    const file = path.join(root, fallback);
    return kindOf(file) === "missing" ? false : file;
  };
  const toolsConfig = pick(values["no-tools"], "--tools-config", values["tools-config"], "tools.json");
  const mcpConfig = pick(values["no-mcp"], "--mcp-config", values["mcp-config"], "mcp.json");
  if (toolsConfig === false && mcpConfig === false && !(values["no-tools"] && values["no-mcp"])) {
    throw new CliError(`No tools.json or mcp.json in ${root}: create them with \`${cliInvocation()} init${values.root === undefined ? "" : ` --root ${values.root}`}\`, or name a file with --tools-config or --mcp-config`);
  }
  return { root, toolsConfig, mcpConfig };
}
