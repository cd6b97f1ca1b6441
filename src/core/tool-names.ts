/**
 * The naming rules every source of tool names shares: the characters a tool name may use, the `__`
 * separator between an MCP server and its tool, and the names the built-in tools own.
 */

/** Separates an MCP server's name from its tool's name in the registry: `github__create_issue`. */
export const TOOL_NAME_SEPARATOR = "__";

/** Longest tool name (MCP's limit). */
export const MAX_TOOL_NAME_LENGTH = 128;

/** A tools.json (local) tool name: MCP's tool-name characters, 1–128 long, without `__` (reserved for `server__tool`). */
export const TOOL_NAME_PATTERN = /^(?!.*__)[A-Za-z0-9_.-]{1,128}$/;

/** Any plugin's tool name: MCP's tool-name characters, 1–128 of them. MCP tools use `__` (`server__tool`). */
export const PLUGIN_TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/** The tool `request_human_input`: the agent asks a person. */
export const HUMAN_INPUT_TOOL_NAME = "request_human_input";

/** The tool `code_execution`: code mode. */
export const CODE_EXECUTION_TOOL_NAME = "code_execution";

/** Names the built-in plugins own; a tools.json tool may not take them. */
export const RESERVED_TOOL_NAMES = [HUMAN_INPUT_TOOL_NAME, CODE_EXECUTION_TOOL_NAME] as const;

/** Code mode's server for tools.json (and host plugin) tools. */
export const LOCAL_SERVER = "local";

/** Code mode's server for built-in tools such as `request_human_input`. */
export const HUMAN_SERVER = "human";

/**
 * Server names that code mode gives to local and built-in tools. An MCP server may still use one
 * (client configs must load unchanged); in code mode its tools are then reached by their full
 * registry name, `call_tool("local__tool", args)`, since `tools.local` means the tools.json tools.
 */
export const RESERVED_SERVER_NAMES: readonly string[] = [LOCAL_SERVER, HUMAN_SERVER];
