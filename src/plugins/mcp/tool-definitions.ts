/**
 * MCP tools as executor tools: named `server__tool` (or `tool`, for a server with `"prefix": false`), with the server's description, schemas and
 * annotations. Names are kept to MCP's tool-name characters and 128 characters, so servers and
 * tools with other names still get a stable, callable name.
 */
import { createHash } from "node:crypto";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ToolAnnotations, ToolDefinition } from "../../core/plugin-contract.js";
import { MAX_TOOL_NAME_LENGTH, TOOL_NAME_SEPARATOR } from "../../core/tool-names.js";

/** A tool of one server, as the plugin routes calls to it. */
export interface ServerTool {
  server: string;
  /** The name the server knows it by. */
  tool: string;
  definition: ToolDefinition;
}

const sanitize = (name: string) => name.replace(/[^A-Za-z0-9_.-]/g, "_") || "_";
const shortHash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 8);

/**
 * The executor name of `tool` on `server`: `server__tool`, with characters outside `A-Z a-z 0-9 _ - .`
 * replaced by `_`, and a hash suffix when it would be longer than 128 characters.
 *
 * @example
 * exposedToolName("github", "create_issue"); // "github__create_issue"
 * exposedToolName("my server", "get/weather"); // "my_server__get_weather"
 * exposedToolName("github", "create_issue", false); // "create_issue"
 */
export function exposedToolName(server: string, tool: string, prefix = true): string {
  const name = prefix ? `${sanitize(server)}${TOOL_NAME_SEPARATOR}${sanitize(tool)}` : sanitize(tool);
  if (name.length <= MAX_TOOL_NAME_LENGTH) return name;
  return `${name.slice(0, MAX_TOOL_NAME_LENGTH - 9)}_${shortHash(`${server}\0${tool}`)}`;
}

/**
 * What every exposed name of `server`'s tools starts with (its first 119 characters, when the
 * server's name alone is that long: such names end with a hash instead).
 *
 * @example
 * exposedNamePrefix("my server"); // "my_server__"
 */
export function exposedNamePrefix(server: string): string {
  return `${sanitize(server)}${TOOL_NAME_SEPARATOR}`.slice(0, MAX_TOOL_NAME_LENGTH - 9);
}

function annotationsOf(tool: Tool): ToolAnnotations | undefined {
  const hints = tool.annotations ?? {};
  const annotations: ToolAnnotations = {};
  const title = tool.title ?? hints.title;
  if (title !== undefined) annotations.title = title;
  for (const key of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
    if (typeof hints[key] === "boolean") annotations[key] = hints[key];
  }
  return Object.keys(annotations).length === 0 ? undefined : annotations;
}

export interface DefinitionOptions {
  timeoutMs?: number;
  /** The server's result budget (mcp.json `results`). */
  results?: { maxChars: number };
  /** false: tools keep their own names (mcp.json `"prefix": false`). Default true. */
  prefix?: boolean;
  /** Names already taken by other servers' tools; a clash gets a hash suffix. */
  taken: Set<string>;
  warn(message: string): void;
}

/**
 * The executor definitions of a server's tools, schemas as the server wrote them: the registry
 * validates each in its own dialect, and one it cannot use leaves that tool unchecked, never out.
 */
export function toServerTools(server: string, tools: Tool[], options: DefinitionOptions): ServerTool[] {
  const result: ServerTool[] = [];
  for (const tool of tools) {
    const inputSchema = { ...tool.inputSchema, type: "object" } as Record<string, unknown>;
    const outputSchema = tool.outputSchema as Record<string, unknown> | undefined;
    let name = exposedToolName(server, tool.name, options.prefix ?? true);
    if (options.taken.has(name)) {
      const renamed = `${name.slice(0, MAX_TOOL_NAME_LENGTH - 9)}_${shortHash(`${server}\0${tool.name}`)}`;
      options.warn(`MCP server "${server}": tool "${tool.name}" would be named "${name}", which is taken; it is named "${renamed}"`);
      name = renamed;
    }
    options.taken.add(name);
    const annotations = annotationsOf(tool);
    result.push({
      server,
      tool: tool.name,
      definition: {
        name,
        description: tool.description?.trim() || tool.title || `Tool "${tool.name}" of MCP server "${server}"`,
        inputSchema,
        ...(outputSchema === undefined ? {} : { outputSchema }),
        ...(annotations === undefined ? {} : { annotations }),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        ...(options.results === undefined ? {} : { results: options.results }),
        // The server decides how much it runs at once; `maxConcurrency` bounds it per server.
        parallel: true,
        server: { name: server, tool: tool.name },
      },
    });
  }
  return result;
}

/** May a call of this tool run again after its connection died mid-call? Only when the server says it is safe. */
export function isRetrySafe(definition: ToolDefinition): boolean {
  return definition.annotations?.readOnlyHint === true || definition.annotations?.idempotentHint === true;
}
