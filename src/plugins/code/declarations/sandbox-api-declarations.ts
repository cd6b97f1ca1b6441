/**
 * The declarations of what sandboxed code gets besides the tools themselves: `input`, `call_tool`,
 * `call_tools`, `ToolError`, `describe_tool`, `search_tools` and `console`. The runtime must provide
 * exactly this; the typed `call_tool` overload reads its types from the `tools` declaration.
 */

/**
 * The fixed part of every declarations text. Plain declarations (no imports or exports), so the text
 * type-checks as a script beside the model's code.
 */
export const SANDBOX_API_DECLARATIONS = `/** The request's \`input\` field: any JSON value, null when the request had none. */
declare const input: any;

/**
 * What call_tool returns. Branch on \`ok\`: a tool's fault is a value, never a throw. \`content\` comes
 * only with results that hold more than text (images, audio, resources).
 */
type ToolCallResult<T = unknown> =
  | { ok: true; value: T; content?: ContentBlock[] }
  | { ok: false; error: { code: string; message: string } };

/** One part of a result. Base64 \`data\` or \`blob\` over 1 MiB is left out, and \`omitted\` says so. */
type ContentBlock =
  | { type: "text"; text: string }
  | { type: "image" | "audio"; data?: string; mimeType: string; omitted?: string }
  | { type: "resource_link"; uri: string; name: string; mimeType?: string; description?: string }
  | { type: "resource"; resource: { uri: string; mimeType?: string; text?: string; blob?: string }; omitted?: string };

/**
 * What \`tools.<server>.<tool>()\` rejects with. \`code\` is one of "INVALID_INPUT", "INVALID_OUTPUT",
 * "TOOL_FAILED", "TIMEOUT", "CANCELLED", "TOOL_NOT_FOUND", "SERVER_NOT_ALLOWED", "MAX_TOOL_CALLS_EXCEEDED", ...
 */
declare class ToolError extends Error {
  readonly code: string;
}

/** One call for call_tools. */
type ToolCallRequest = { server: string; tool: string; args?: { [key: string]: unknown } };

/** The arguments of \`tools[S][T]\`. */
type ToolArguments<S extends keyof typeof tools, T extends keyof (typeof tools)[S]> =
  (typeof tools)[S][T] extends (args: infer A) => unknown ? A : never;

/** The value \`tools[S][T]\` resolves to. */
type ToolValue<S extends keyof typeof tools, T extends keyof (typeof tools)[S]> =
  (typeof tools)[S][T] extends (...args: never[]) => Promise<infer R> ? R : unknown;

/** Call one tool and get its envelope; synchronous, so it works with or without \`await\`. */
declare function call_tool<S extends keyof typeof tools, T extends keyof (typeof tools)[S]>(
  server: S,
  tool: T,
  args: ToolArguments<S, T>,
): ToolCallResult<ToolValue<S, T>>;
/** Call one tool by its registry name ("csv_summary", "github__create_issue"). */
declare function call_tool(name: string, args?: { [key: string]: unknown }): ToolCallResult;

/** Run independent calls concurrently; the envelopes come back in the same order. */
declare function call_tools(calls: ToolCallRequest[]): Promise<ToolCallResult[]>;

/** The declaration of one tool (registry name or "server.tool"), or why there is none. */
declare function describe_tool(name: string): string;

/** Tools whose names and descriptions match the words of \`query\`, best first (default 10). */
declare function search_tools(
  query: string,
  limit?: number,
): { name: string; server: string; tool: string; summary: string }[];

/** Captured: the lines come back as \`logs\` in the result. */
declare const console: {
  log(...values: unknown[]): void;
  info(...values: unknown[]): void;
  warn(...values: unknown[]): void;
  error(...values: unknown[]): void;
};
`;

/** The \`tools\` declaration when the catalog is too large to type: every tool, untyped. */
export const UNTYPED_TOOLS_DECLARATION = `/** Every tool as tools.<server>.<tool>(args); describe_tool(name) gives one tool's types. */
declare const tools: {
  [server: string]: { [tool: string]: (args?: { [key: string]: unknown }) => Promise<unknown> };
};
`;
