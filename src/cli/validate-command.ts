/**
 * `toolexec validate`: check the config files (every problem, with file, line and column), then
 * start the MCP servers to check that each one connects. A server that does not is a warning on
 * stderr, not a failure: the config is valid, and the server may be down only for now.
 */
import path from "node:path";
import type { CommandContext } from "./command-context.js";
import { selectProjectFiles } from "./project-options.js";
import { withExecutor } from "./with-executor.js";

/** A config file as the summary names it: relative to the project when inside it. */
function shownName(file: string, root: string): string {
  const relative = path.relative(root, file);
  return relative.startsWith("..") || path.isAbsolute(relative) ? file : relative;
}

export async function runValidate(context: CommandContext): Promise<number> {
  const project = selectProjectFiles(context.values, context.cwd, context.command);
  const format = await import("./format.js");
  const { loadProjectConfig, RESERVED_TOOL_NAMES } = await import("../config.js");
  const config = await loadProjectConfig(project);
  const enabled = config.sections.mcp.filter((server) => server.enabled);
  const named = [...config.entries.script, ...config.entries.python].map((tool) => tool.name);
  const modules = config.sections.python.length;
  // Tools are started only when Python modules must be imported to know theirs (pythonModules):
  // otherwise only servers can fail in ways the files do not show.
  const started = enabled.length === 0 && modules === 0
    ? { servers: [], tools: [] }
    : await withExecutor(context, modules === 0 ? { ...project, toolsConfig: false } : project, { logDir: false }, async (executor) => ({ servers: executor.servers(), tools: await executor.listTools() }));
  const servers = started.servers;
  // The listed tools less tools.json's own, the MCP servers' (as served, prefixed or not) and the
  // built-ins (web_search, the saved-tool tools, ...): those the modules marked.
  const others = new Set<string>([...named, ...servers.flatMap((server) => server.tools), ...RESERVED_TOOL_NAMES]);
  const discovered = modules === 0 ? [] : started.tools.map((tool) => tool.name).filter((name) => !others.has(name));
  const unavailable = format.serversWithoutTools(servers);
  if (context.values.json) {
    const serverWarnings = unavailable.map((server) => ({ server: server.name, state: server.state, ...(server.lastError ? { lastError: server.lastError } : {}) }));
    const summary = {
      ok: true,
      tools: [...named, ...discovered],
      servers: config.sections.mcp.map((server) => server.name),
      warnings: format.displayIssues(config.warnings, project.root),
      serverWarnings,
    };
    context.output.out(JSON.stringify(summary, null, 2));
  } else {
    const found = modules === 0 ? "" : ` (${discovered.length} of them found in ${modules} Python module(s))`;
    const tools = project.toolsConfig === false ? "no tools config" : `${named.length + discovered.length} tool(s) in ${shownName(project.toolsConfig, project.root)}${found}`;
    const mcp = project.mcpConfig === false ? "no MCP config" : `${config.sections.mcp.length} server(s) in ${shownName(project.mcpConfig, project.root)}`;
    context.output.out(`ok: ${tools}, ${mcp}`);
    if (config.warnings.length > 0) context.output.err(`warnings:\n${format.formatIssues(config.warnings, project.root)}`);
  }
  const warning = format.formatServerWarning(servers);
  if (warning !== undefined) context.output.err(warning);
  return 0;
}
