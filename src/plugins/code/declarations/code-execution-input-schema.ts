/** The JSON Schema of the `code_execution` tool's arguments (DESIGN §8). */
import type { JsonSchema } from "../../../core/plugin-contract.js";

/** The arguments of one `code_execution` call, as the schema below accepts them. */
export interface CodeExecutionInput {
  /** JavaScript; top-level await and return work; the last expression statement's value is the result. */
  code: string;
  /** Any JSON value, available to the code as `input` (null when absent). */
  input?: unknown;
  options?: {
    /** Deadline of this run in ms, queueing included; at most the configured `maxTimeoutMs`. */
    timeout_ms?: number;
    /** Tool calls this run may make; 0 is unlimited; at most the configured `maxToolCalls` when that is set. */
    max_tool_calls?: number;
    /** Servers this run may call, within the configured ones; `[]` allows none. */
    allowed_servers?: string[];
  };
}

/**
 * `{ code, input?, options?: { timeout_ms?, max_tool_calls?, allowed_servers? } }`, closed to other
 * keys. Frozen all the way down: every executor shares this one object.
 *
 * @example
 * const definition: ToolDefinition = { name: "code_execution", description, inputSchema: codeExecutionInputSchema };
 */
export const codeExecutionInputSchema: JsonSchema = deepFreeze({
  type: "object",
  properties: {
    code: {
      type: "string",
      minLength: 1,
      description: "The JavaScript program. Top-level await and return work; the last expression's value is the result.",
    },
    input: {
      description: "Any JSON value, available to the program as `input`.",
    },
    options: {
      type: "object",
      properties: {
        timeout_ms: { type: "integer", minimum: 1, description: "Deadline of this execution in ms, within the configured maximum." },
        max_tool_calls: { type: "integer", minimum: 0, description: "Most tool calls this execution may make; 0 means no cap." },
        allowed_servers: {
          type: "array",
          items: { type: "string" },
          uniqueItems: true,
          description: "Only these servers may be called (an empty list allows none); absent allows every configured server.",
        },
      },
      additionalProperties: false,
    },
  },
  required: ["code"],
  additionalProperties: false,
});

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
