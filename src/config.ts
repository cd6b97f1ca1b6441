/**
 * `toolexec/config`: a project's config read and checked without starting anything
 * (`loadProjectConfig`), the resolved entries of tools.json, and the types of registry writes
 * (`executor.registerTool` and its siblings). mcp.json's entries are in `toolexec/mcp`, the
 * `codeExecution` settings in `toolexec/code`. See docs/config.md and docs/registry-api.md.
 *
 * @example
 * import { isConfigError, formatConfigIssue } from "toolexec";
 * import { loadProjectConfig } from "toolexec/config";
 * try {
 *   const config = await loadProjectConfig({ root: "./my-project" });
 *   console.log(config.entries.script.map((tool) => tool.name));
 * } catch (error) {
 *   if (isConfigError(error)) for (const issue of error.issues) console.error(formatConfigIssue(issue));
 * }
 */
export { loadProjectConfig } from "./load-project-config.js";
export type { ProjectConfig, ProjectConfigOptions } from "./load-project-config.js";
export type { PythonFunctionEntry, ScriptToolEntry } from "./core/config/load-tools-config.js";
export type { PythonEntry, PythonModuleEntry, PythonSettings } from "./plugins/python/python-plugin.js";
export type { WebSearchConfig } from "./plugins/web-search/config/web-search-config-schema.js";
export type { WebSearchSettings } from "./plugins/web-search/config/resolve-web-search-config.js";
export type { RegistryChange, RegistrySnapshot, RegistryWriteOptions, RegisteredEntry } from "./core/registry/tools-config-writer.js";
export { RESERVED_TOOL_NAMES } from "./core/tool-names.js";
export { listPythonEnvironments, pythonEnvironmentsFolder, syncPythonEnvironments } from "./python-environments.js";
export type { EnvironmentProgress, ProjectPythonEnvironment, PythonEnvironmentSpec, SyncOutcome } from "./python-environments.js";
export { identityPlugin, profilesPlugin } from "./gateway/gateway-plugins.js";
export type { IdentityApi, ProfilesApi } from "./gateway/gateway-plugins.js";
export type { IdentityConfig, ProfileConfig, ResolvedProfile } from "./gateway/gateway-config.js";
export { compileToolPatterns, toolPatternProblem } from "./gateway/tool-patterns.js";
