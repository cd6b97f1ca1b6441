/**
 * `loadProjectConfig`: a project's configuration as `createExecutor` would read it, without starting
 * anything — tools.json's tools, and the section of each plugin that owns one (the built-in plugins'
 * and the given host plugins'), resolved, with every problem of every file located.
 */
import path from "node:path";
import { collectSections } from "./core/config/config-sections.js";
import { loadConfigFiles, type ProjectConfig as CoreProjectConfig } from "./core/config/load-project-config.js";
import { loadSectionSchemas } from "./core/config/lazy-section-schema.js";
import type { ExecutorPlugin } from "./core/plugin-contract.js";
import { ToolexecError } from "./core/errors/toolexec-error.js";
import { checkContractVersion } from "./core/executor/check-contract-version.js";
import { codePlugin } from "./plugins/code/code-plugin.js";
import type { ResolvedCodeExecutionOptions } from "./plugins/code/config/code-execution-options.js";
import type { McpServerEntry } from "./plugins/mcp/config/resolve-mcp-server.js";
import { lazyMcpPlugin as mcpPlugin } from "./plugins/mcp/lazy-mcp-plugin.js";
import type { PythonSettings } from "./plugins/python/config/python-modules-section.js";
import { lazyPythonPlugin as pythonPlugin } from "./plugins/python/lazy-python-plugin.js";
import type { ResolvedToolSearchSettings } from "./plugins/search/config/tool-search-config.js";
import { searchPlugin } from "./plugins/search/search-plugin.js";
import type { WebSearchSettings } from "./plugins/web-search/config/resolve-web-search-config.js";
import { webSearchPlugin } from "./plugins/web-search/web-search-plugin.js";
import { identityPlugin, profilesPlugin } from "./gateway/gateway-plugins.js";

export interface ProjectConfigOptions {
  /** The project folder; default `process.cwd()`. */
  root?: string;
  /** tools.json's path relative to root, or `false` to run without local tools. Default `"tools.json"`. */
  toolsConfig?: string | false;
  /** mcp.json's path relative to root, or `false` to run without MCP servers. Default `"mcp.json"`. */
  mcpConfig?: string | false;
  /** Host plugins whose sections (their `config`) to read too, as `createExecutor({ plugins })` would. */
  plugins?: ExecutorPlugin<never>[];
}

/** The built-in plugins' sections, resolved as the project's files say (no `createExecutor` option applied). */
export interface BuiltInSections {
  /** mcp.json's servers (`[]` with `mcpConfig: false`). */
  mcp: McpServerEntry[];
  /** tools.json's `pythonModules` (one entry per Python file) and the worker limits of its `python` key. */
  python: PythonSettings;
  /** tools.json's `codeExecution` with defaults applied; code mode runs when `enabled`. */
  code: ResolvedCodeExecutionOptions;
  /** tools.json's `toolSearch` with defaults applied. */
  search: ResolvedToolSearchSettings;
  /** tools.json's `webSearch`, resolved; undefined when absent (no `web_search` tool). */
  "web-search"?: WebSearchSettings;
}

/** A project's valid configuration: tools.json's tools by kind, and each plugin's section by plugin name. */
export interface ProjectConfig extends CoreProjectConfig {
  sections: BuiltInSections & Record<string, unknown>;
}

/**
 * Load and validate the project's config files. Throws `ConfigError` (`CONFIG_MISSING` or
 * `CONFIG_INVALID`) listing every problem found in any file, and `INVALID_OPTIONS` for a host plugin
 * the executor would refuse.
 *
 * @example
 * const config = await loadProjectConfig({ root: "./my-project" });
 * for (const warning of config.warnings) console.warn(formatConfigIssue(warning));
 * console.log(config.entries.script.length, "scripts,", config.sections.mcp.length, "MCP servers");
 */
export async function loadProjectConfig(options: ProjectConfigOptions = {}): Promise<ProjectConfig> {
  const root = path.resolve(options.root ?? process.cwd());
  const toolsConfig = options.toolsConfig ?? "tools.json";
  const owners = sectionOwners(options.mcpConfig ?? "mcp.json", options.plugins ?? []);
  const names = new Set<string>();
  for (const plugin of owners) {
    // As createExecutor does: sections are filed by plugin name, so one name is one plugin.
    if (names.has(plugin.name)) throw new ToolexecError("INVALID_OPTIONS", `Plugin name "${plugin.name}" is already taken; give each plugin a unique name`);
    names.add(plugin.name);
    checkContractVersion(plugin);
  }
  const config = await loadConfigFiles({ root, toolsConfig, sections: collectSections(owners, toolsConfig) });
  return config as ProjectConfig;
}

/** The plugins whose sections are read, in `createExecutor`'s start order. Plugin objects only lend their sections here: none is started. */
function sectionOwners(mcpConfig: string | false, plugins: readonly ExecutorPlugin<never>[]): ExecutorPlugin<never>[] {
  return [pythonPlugin(), mcpPlugin({ configFile: mcpConfig }), searchPlugin(), ...plugins, codePlugin(), webSearchPlugin(), profilesPlugin, identityPlugin];
}

/**
 * tools.json's zod schema with the built-in plugins' keys: what `npm run schema` publishes as
 * schema/tools.schema.json.
 */
export async function builtInToolsConfigSchema() {
  const sections = collectSections(sectionOwners(false, []), "tools.json");
  await loadSectionSchemas(sections);
  return (await import("./core/config/tools-config-schema.js")).toolsConfigSchemaWith(sections);
}
