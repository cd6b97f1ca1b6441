/**
 * The `search_tools` tool: the search plugin's ranking offered to models (and, served over MCP, to
 * MCP clients), with its limits.
 */
import type { ToolDefinition } from "../../core/plugin-contract.js";
import { SEARCH_TOOLS_TOOL_NAME } from "../../core/tool-names.js";

/** How many results a search returns when it names no limit. */
export const DEFAULT_SEARCH_LIMIT = 10;
/** Most results one search returns. */
export const MAX_SEARCH_LIMIT = 100;

export const SEARCH_TOOLS_DEFINITION: ToolDefinition = {
  name: SEARCH_TOOLS_TOOL_NAME,
  description:
    "Find the tools that fit a task, described in plain words; returns their names, best match first, with a one-line summary each. " +
    "Use it when no listed tool obviously fits, or to choose among many.",
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string", minLength: 1, maxLength: 2000, description: "The task, in plain words." },
      limit: { type: "integer", minimum: 1, maximum: MAX_SEARCH_LIMIT, description: `How many tools to return (default ${DEFAULT_SEARCH_LIMIT}).` },
    },
    required: ["query"],
    additionalProperties: false,
  },
  outputSchema: {
    type: "array",
    items: {
      type: "object",
      properties: { name: { type: "string" }, score: { type: "number" }, summary: { type: "string" } },
      required: ["name", "score", "summary"],
    },
  },
  annotations: { title: "Search tools", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  parallel: true,
};

/** The limit to use: a positive integer up to the maximum, else the default. */
export function resolveLimit(limit: unknown): number {
  if (typeof limit !== "number" || !Number.isFinite(limit) || limit < 1) return DEFAULT_SEARCH_LIMIT;
  return Math.min(Math.floor(limit), MAX_SEARCH_LIMIT);
}
