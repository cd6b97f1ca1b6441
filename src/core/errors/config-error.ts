/** The error for a missing or invalid tools.json / mcp.json. */
import { ToolexecError, isToolexecError } from "./toolexec-error.js";

/** One problem found in a config file, located as precisely as the file allows. */
export interface ConfigIssue {
  /** The file, as a path relative to the project root where possible. */
  file: string;
  /** JSON path in the file, like `tools[2].timeoutMs`; empty for the whole document. */
  path: string;
  line?: number;
  column?: number;
  message: string;
}

/**
 * Thrown by `createExecutor` and `loadProjectConfig` when a config file is missing
 * (`CONFIG_MISSING`) or invalid (`CONFIG_INVALID`). `issues` lists every problem found.
 */
export class ConfigError extends ToolexecError {
  readonly issues: ConfigIssue[];

  constructor(code: "CONFIG_INVALID" | "CONFIG_MISSING", issues: ConfigIssue[], options: { cause?: unknown } = {}) {
    super(code, formatConfigIssues(issues), { details: { issues }, cause: options.cause });
    this.name = "ConfigError";
    this.issues = issues;
  }
}

/**
 * True for a ConfigError from any realm.
 *
 * @example
 * try {
 *   await createExecutor({ root: "./my-project" });
 * } catch (error) {
 *   if (isConfigError(error)) for (const issue of error.issues) console.error(formatConfigIssue(issue));
 *   else throw error;
 * }
 */
export function isConfigError(value: unknown): value is ConfigError {
  return isToolexecError(value) && (value.code === "CONFIG_INVALID" || value.code === "CONFIG_MISSING");
}

/**
 * One issue as `file:line:column path: message`.
 *
 * @example
 * formatConfigIssue({ file: "tools.json", line: 12, column: 7, path: "tools[2].timeoutMs", message: "Expected a number, got a string" });
 * // 'tools.json:12:7 tools[2].timeoutMs: Expected a number, got a string'
 */
export function formatConfigIssue(issue: ConfigIssue): string {
  const where = issue.line === undefined ? issue.file : `${issue.file}:${issue.line}:${issue.column ?? 1}`;
  return issue.path === "" ? `${where}: ${issue.message}` : `${where} ${issue.path}: ${issue.message}`;
}

/** One issue on one line; several under a heading that names the files, one indented line each. */
export function formatConfigIssues(issues: ConfigIssue[]): string {
  if (issues.length === 1) return formatConfigIssue(issues[0]!);
  const files = [...new Set(issues.map((issue) => issue.file))].join(" and ");
  return `${issues.length} problems in ${files}:\n${issues.map((issue) => `  ${formatConfigIssue(issue)}`).join("\n")}`;
}
