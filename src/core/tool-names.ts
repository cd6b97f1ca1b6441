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

/** The tool `search_tools`: ranks the registry's tools for a request in plain words. */
export const SEARCH_TOOLS_TOOL_NAME = "search_tools";

/**
 * Longest query `search_tools` accepts, in characters, from any front door: a request in plain
 * words is far shorter, and every stage of a search grows with its query.
 */
export const MAX_SEARCH_QUERY_LENGTH = 2_000;

/** The tool `web_search`: searches the web through the provider configured in `webSearch`. */
export const WEB_SEARCH_TOOL_NAME = "web_search";

/** The tool `call_tool` of the search-first listing: calls any registry tool by name. */
export const CALL_TOOL_TOOL_NAME = "call_tool";

/** The tool `describe_tools`, offered with `search_tools`: full definitions (input schemas) of named tools. */
export const DESCRIBE_TOOLS_TOOL_NAME = "describe_tools";

/** The tool `read_result`: pages through a result a model got only the head of, by its handle. */
export const READ_RESULT_TOOL_NAME = "read_result";

/** The tools that manage saved composite tools (code mode): save, list, show and delete one. */
export const SAVED_TOOL_BUILT_IN_NAMES = ["save_tool", "list_saved_tools", "show_saved_tool", "delete_saved_tool"] as const;

/** Names the built-in plugins own; a tools.json tool may not take them. */
export const RESERVED_TOOL_NAMES = [HUMAN_INPUT_TOOL_NAME, CODE_EXECUTION_TOOL_NAME, SEARCH_TOOLS_TOOL_NAME, CALL_TOOL_TOOL_NAME, DESCRIBE_TOOLS_TOOL_NAME, WEB_SEARCH_TOOL_NAME, READ_RESULT_TOOL_NAME, ...SAVED_TOOL_BUILT_IN_NAMES] as const;

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

/** Longest MCP server name: `server__tool` must still fit MAX_TOOL_NAME_LENGTH with a useful tool name. */
export const MAX_SERVER_NAME_LENGTH = 64;

/**
 * An MCP server's name, from mcp.json or `addServer`: 1–64 of `A-Z a-z 0-9 _ - .`, starting with a
 * letter or digit, without `__` (the `server__tool` separator: `a__b` + `c` and `a` + `b__c` would
 * both expose `a__b__c`). Names become part of every tool name the server exposes, so a name that
 * needs rewriting (spaces, accents, an empty name) is refused rather than silently mangled.
 */
export const SERVER_NAME_PATTERN = /^(?!.*__)[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** What a server name must look like, in words, for error messages. */
export const SERVER_NAME_RULE = "1-64 characters from A-Z a-z 0-9 _ - . that starts with a letter or digit and has no \"__\"";
