/**
 * The tools a python plugin serves, built from what the workers said about each module: the
 * tools.json entries naming a function, then the functions each `pythonModules` file marks. A
 * marked function whose name is invalid, reserved or already taken is a config problem naming
 * both sources: at start it stops the plugin (ConfigError); after an edit it is left out with a
 * warning, keeping the tools already served.
 */
import type { PythonFunctionEntry } from "../../core/config/load-tools-config.js";
import type { PythonModuleEntry } from "./config/resolve-python-modules.js";
import type { ConfigIssue } from "../../core/errors/config-error.js";
import type { ToolDefinition } from "../../core/plugin-contract.js";
import { RESERVED_TOOL_NAMES, TOOL_NAME_PATTERN } from "../../core/tool-names.js";
import type { DescribedFunction, MarkedFunction } from "./describe-functions.js";

/** A tool the plugin serves: a tools.json function entry, or a function a module marked (called by its tool name). */
export type PythonTool = PythonFunctionEntry & { marked?: boolean };

export function toDefinition(tool: PythonTool, derived: DescribedFunction): ToolDefinition {
  const outputSchema = tool.outputSchema ?? derived.outputSchema;
  return {
    name: tool.name,
    description: tool.description ?? derived.description,
    inputSchema: tool.inputSchema ?? derived.inputSchema,
    ...(outputSchema === undefined ? {} : { outputSchema }),
    annotations: { ...(tool.title === undefined ? {} : { title: tool.title }), ...tool.annotations },
    timeoutMs: tool.timeoutMs,
    parallel: tool.parallel,
    ...(tool.results === undefined ? {} : { results: tool.results }),
  };
}

/** A marked function as a tool, with its module's settings under the metadata of its mark. */
export function markedTool(entry: PythonModuleEntry, marked: MarkedFunction): PythonTool {
  const timeoutMs = marked.timeoutMs ?? entry.timeoutMs;
  return {
    name: marked.name,
    ...(marked.title ? { title: marked.title } : {}),
    module: entry.module,
    modulePath: entry.modulePath,
    function: marked.name,
    interpreter: entry.interpreter,
    ...(marked.annotations ? { annotations: marked.annotations } : {}),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    parallel: marked.parallel ?? entry.parallel,
    env: entry.env,
    cwd: entry.cwd,
    ...(entry.memoryLimitMb === undefined ? {} : { memoryLimitMb: entry.memoryLimitMb }),
    marked: true,
  };
}

/** Where a tool comes from, for a message naming both sides of a clash. */
function sourceOf(tool: PythonTool, line?: number | null): string {
  return tool.marked ? `tools/${tool.modulePath}${line ? `:${line}` : ""} (a marked function)` : `tools.json (function "${tool.modulePath}:${tool.function}")`;
}

export interface MarkedModule {
  entry: PythonModuleEntry;
  functions: MarkedFunction[];
}

/**
 * The served list: `named` first (those with a definition), then the marked functions of each
 * module, in order. Returns the problems with marked functions; their tools are left out.
 */
export function assembleTools(named: Array<{ tool: PythonTool; derived: DescribedFunction }>, modules: MarkedModule[]) {
  const tools = new Map<string, { tool: PythonTool; definition: ToolDefinition; line?: number | null }>();
  const problems: ConfigIssue[] = [];
  for (const { tool, derived } of named) tools.set(tool.name, { tool, definition: toDefinition(tool, derived) });
  for (const { entry, functions } of modules) {
    for (const marked of functions) {
      const tool = markedTool(entry, marked);
      const issue = (message: string) => problems.push({ file: `tools/${entry.modulePath}`, path: "", ...(marked.line ? { line: marked.line } : {}), message });
      const earlier = tools.get(tool.name);
      if (!TOOL_NAME_PATTERN.test(tool.name)) issue(`Expected a tool name of 1-128 characters from A-Z a-z 0-9 _ - . without "__", got ${JSON.stringify(tool.name)}; pass name=... to the decorator`);
      else if ((RESERVED_TOOL_NAMES as readonly string[]).includes(tool.name)) issue(`Tool name "${tool.name}" is reserved for a built-in tool; pass another name=... to the decorator`);
      else if (earlier) issue(`Tool name "${tool.name}" is defined by both ${sourceOf(earlier.tool, earlier.line)} and ${sourceOf(tool, marked.line)}; rename one of them`);
      else tools.set(tool.name, { tool, definition: toDefinition(tool, marked), line: marked.line });
    }
  }
  return { tools, problems };
}
