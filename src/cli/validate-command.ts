/**
 * `toolexec validate`: check the config files (every problem, with file, line and column), then
 * start what the files do not settle alone (Python modules, MCP servers) and name each broken
 * piece: a tool the config names that cannot be served, an unavailable server. Broken pieces exit
 * 1, saying what still works; a server that does not connect is a warning on stderr, not a failure:
 * the config is valid, and the server may be down only for now. `--strict` starts the executor
 * with `strict: true`, so a broken piece is a start-up error.
 */
import path from "node:path";
import { findBrokenPieces, formatBrokenPieces, isBrokenPieceWarning, isUnavailableServer } from "./broken-pieces.js";
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
  const { formatConfigIssue } = await import("../index.js");
  const config = await loadProjectConfig(project);
  const enabled = config.sections.mcp.filter((server) => server.enabled);
  const named = [...config.entries.script, ...config.entries.python].map((tool) => tool.name);
  const modules = config.sections.python.modules.length;
  // Tools are started only when Python must import modules to tell (function entries, pythonModules):
  // otherwise only servers can fail in ways the files do not show.
  const python = modules + config.entries.python.length;
  const strict = context.values.strict === true ? { strict: true } : {};
  const started =
    enabled.length === 0 && python === 0
      ? { servers: [], tools: [], unavailableTools: [] }
      : await withExecutor(
          context,
          python === 0 ? { ...project, toolsConfig: false } : project,
          { logDir: false, ...strict },
          async (executor) => ({ servers: executor.servers(), tools: await executor.listTools(), unavailableTools: executor.configStatus().unavailableTools }),
          // A piece left out is named once, among the broken ones, not also as the warning of its
          // leaving; the config's warnings are printed below with the others.
          (messages, executor) => {
            const broken = findBrokenPieces(executor.configStatus().unavailableTools, executor.servers());
            const configWarnings = new Set(config.warnings.map(formatConfigIssue));
            return messages.filter((message) => !isBrokenPieceWarning(message, broken) && !configWarnings.has(message));
          },
        );
  const { servers } = started;
  // The listed tools less tools.json's own, the MCP servers' (as served, prefixed or not) and the
  // built-ins (web_search, the saved-tool tools, ...): those the modules marked.
  const others = new Set<string>([...named, ...servers.flatMap((server) => server.tools), ...RESERVED_TOOL_NAMES]);
  const discovered = modules === 0 ? [] : started.tools.map((tool) => tool.name).filter((name) => !others.has(name));
  const broken = findBrokenPieces(started.unavailableTools, servers);
  const brokenTools = new Set(started.unavailableTools.map((tool) => tool.name));
  const working = { tools: named.filter((name) => !brokenTools.has(name)).length + discovered.length, servers: servers.filter((server) => server.state === "connected").length };
  // Unavailable servers are broken pieces, named once with them rather than again among the servers that are down.
  const down = servers.filter((server) => !isUnavailableServer(server));
  if (context.values.json) {
    const serverWarnings = format.serversWithoutTools(down).map((server) => ({ server: server.name, state: server.state, ...(server.lastError ? { lastError: server.lastError } : {}) }));
    const summary = {
      ok: broken.length === 0,
      tools: [...named, ...discovered],
      servers: config.sections.mcp.map((server) => server.name),
      warnings: format.displayIssues(config.warnings, project.root),
      serverWarnings,
      broken,
      working,
    };
    context.output.out(JSON.stringify(summary, null, 2));
  } else if (broken.length > 0) {
    context.output.err(`error: ${formatBrokenPieces(broken, working)}`);
  } else {
    const found = modules === 0 ? "" : ` (${discovered.length} of them found in ${modules} Python module(s))`;
    const tools = project.toolsConfig === false ? "no tools config" : `${named.length + discovered.length} tool(s) in ${shownName(project.toolsConfig, project.root)}${found}`;
    const mcp = project.mcpConfig === false ? "no MCP config" : `${config.sections.mcp.length} server(s) in ${shownName(project.mcpConfig, project.root)}`;
    context.output.out(`ok: ${tools}, ${mcp}`);
  }
  if (!context.values.json && config.warnings.length > 0) context.output.err(`warnings:\n${format.formatIssues(config.warnings, project.root)}`);
  const warning = format.formatServerWarning(down);
  if (warning !== undefined) context.output.err(warning);
  return broken.length === 0 ? 0 : 1;
}
