/**
 * The `search_tools` tool: the search plugin's ranking offered to models (and, served over MCP, to
 * MCP clients), with its limits.
 */
import type { ToolDefinition } from "../../core/plugin-contract.js";
import { DESCRIBE_TOOLS_TOOL_NAME, MAX_SEARCH_QUERY_LENGTH, SEARCH_TOOLS_TOOL_NAME } from "../../core/tool-names.js";
import { ToolexecError } from "../../core/errors/toolexec-error.js";

/** How many results a search returns when it names no limit. */
export const DEFAULT_SEARCH_LIMIT = 10;
/** Most results one search returns. */
export const MAX_SEARCH_LIMIT = 100;
/** Longest query, in characters (see MAX_SEARCH_QUERY_LENGTH). */
export const MAX_QUERY_LENGTH = MAX_SEARCH_QUERY_LENGTH;

export const SEARCH_TOOLS_DEFINITION: ToolDefinition = {
  name: SEARCH_TOOLS_TOOL_NAME,
  description:
    "Find the tools that fit a task, described in plain words; returns their names, best match first, with a one-line summary each. " +
    "Use it when no listed tool obviously fits, or to choose among many. " +
    `To see the arguments a tool takes, pass detail "schema" (each result gets its inputSchema) or call ${DESCRIBE_TOOLS_TOOL_NAME} with its name.`,
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string", minLength: 1, maxLength: MAX_QUERY_LENGTH, description: "The task, in plain words." },
      limit: { type: "integer", minimum: 1, maximum: MAX_SEARCH_LIMIT, description: `How many tools to return (default ${DEFAULT_SEARCH_LIMIT}).` },
      detail: { type: "string", enum: ["summary", "schema"], description: 'What each result holds: "summary" (default) or "schema" (its input schema too).' },
    },
    required: ["query"],
    additionalProperties: false,
  },
  outputSchema: {
    type: "array",
    items: {
      type: "object",
      properties: { name: { type: "string" }, score: { type: "number" }, summary: { type: "string" }, inputSchema: { type: "object" } },
      required: ["name", "score", "summary"],
    },
  },
  annotations: { title: "Search tools", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  parallel: true,
};

/** What each search result holds: the one-line summary, or the tool's input schema too. */
export type SearchDetail = "summary" | "schema";

/** Throws `INVALID_INPUT` for a `detail` other than "summary" or "schema". */
export function checkDetail(detail: unknown): SearchDetail {
  if (detail === undefined || detail === "summary" || detail === "schema") return detail ?? "summary";
  throw new ToolexecError("INVALID_INPUT", `detail must be "summary" or "schema"; got ${JSON.stringify(detail)}`, { details: { detail } });
}

/** The limit to use: a positive integer up to the maximum, else the default. */
export function resolveLimit(limit: unknown): number {
  if (typeof limit !== "number" || !Number.isFinite(limit) || limit < 1) return DEFAULT_SEARCH_LIMIT;
  return Math.min(Math.floor(limit), MAX_SEARCH_LIMIT);
}

/**
 * Throws `INVALID_INPUT` for a query longer than {@link MAX_QUERY_LENGTH}, before any work on it.
 *
 * @example
 * checkQueryLength("D".repeat(60_000)); // throws: A search query may be at most 2000 characters; this one has 60000
 */
export function checkQueryLength(query: string): void {
  if (query.length <= MAX_QUERY_LENGTH) return;
  throw new ToolexecError("INVALID_INPUT", `A search query may be at most ${MAX_QUERY_LENGTH} characters; this one has ${query.length}`, { details: { maxLength: MAX_QUERY_LENGTH, length: query.length } });
}
