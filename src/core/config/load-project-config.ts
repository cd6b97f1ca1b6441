/** Loads a project's tools.json and mcp.json together, reporting every problem of both at once. */
import path from "node:path";
import { ConfigError, type ConfigIssue } from "../errors/config-error.js";
import type { CodeExecutionConfig } from "./code-execution-config-schema.js";
import { loadMcpConfig, type McpServerEntry } from "./load-mcp-config.js";
import { loadToolsConfig, type PythonEntry, type ScriptToolEntry } from "./load-tools-config.js";
import type { WebSearchSettings } from "./resolve-web-search-config.js";

export interface ProjectConfigOptions {
  /** The project folder; default `process.cwd()`. */
  root?: string;
  /** tools.json's path relative to root, or `false` to run without local tools. Default `"tools.json"`. */
  toolsConfig?: string | false;
  /** mcp.json's path relative to root, or `false` to run without MCP servers. Default `"mcp.json"`. */
  mcpConfig?: string | false;
}

/** A file's issues in the order an editor shows them; issues without a place (a missing file) first. */
function inFileOrder(issues: ConfigIssue[]): ConfigIssue[] {
  const place = (issue: ConfigIssue) => [issue.line ?? 0, issue.column ?? 0] as const;
  return [...issues].sort((left, right) => {
    const [leftLine, leftColumn] = place(left);
    const [rightLine, rightColumn] = place(right);
    return leftLine - rightLine || leftColumn - rightColumn;
  });
}

/** A project's valid configuration, resolved: entries by the plugin kind that owns them. */
export interface ProjectConfig {
  root: string;
  /** Absolute paths of the config files in use (watched for hot reload). */
  files: string[];
  /** `python` holds tools.json's function entries, then one entry per `pythonModules` file. */
  entries: { script: ScriptToolEntry[]; python: PythonEntry[]; mcp: McpServerEntry[] };
  warnings: ConfigIssue[];
  /** tools.json's `codeExecution` object as written, if any. */
  codeExecution?: CodeExecutionConfig;
  /** tools.json's `webSearch` object, resolved, if any. */
  webSearch?: WebSearchSettings;
}

/**
 * Load and validate the project's config files. Throws `ConfigError` (`CONFIG_MISSING` or
 * `CONFIG_INVALID`) listing every problem found in either file.
 *
 * @example
 * const config = await loadProjectConfig({ root: "./my-project" });
 * for (const warning of config.warnings) console.warn(formatConfigIssue(warning));
 */
export async function loadProjectConfig(options: ProjectConfigOptions = {}): Promise<ProjectConfig> {
  const root = path.resolve(options.root ?? process.cwd());
  const toolsName = options.toolsConfig ?? "tools.json";
  const mcpName = options.mcpConfig ?? "mcp.json";
  const [tools, mcp] = await Promise.all([
    toolsName === false ? undefined : loadToolsConfig(root, toolsName),
    mcpName === false ? undefined : loadMcpConfig(root, mcpName),
  ]);
  const issues: ConfigIssue[] = [];
  let missing = false;
  for (const result of [tools, mcp]) {
    if (result === undefined || result.status === "ok") continue;
    missing ||= result.status === "missing";
    issues.push(...inFileOrder(result.issues));
  }
  if (issues.length > 0) throw new ConfigError(missing ? "CONFIG_MISSING" : "CONFIG_INVALID", issues);
  const files = [toolsName, mcpName].filter((name): name is string => name !== false).map((name) => path.resolve(root, name));
  return {
    root,
    files,
    entries: {
      script: tools?.status === "ok" ? tools.config.tools : [],
      python: tools?.status === "ok" ? [...tools.config.functions, ...tools.config.modules] : [],
      mcp: mcp?.status === "ok" ? mcp.servers : [],
    },
    warnings: [...(tools?.status === "ok" ? tools.config.warnings : []), ...(mcp?.status === "ok" ? mcp.warnings : [])],
    ...(tools?.status === "ok" && tools.config.codeExecution !== undefined ? { codeExecution: tools.config.codeExecution } : {}),
    ...(tools?.status === "ok" && tools.config.webSearch !== undefined ? { webSearch: tools.config.webSearch } : {}),
  };
}
