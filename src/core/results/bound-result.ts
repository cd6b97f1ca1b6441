/**
 * A call's result as a model gets it: unchanged when its value fits the budget (no copy, no JSON
 * unless the value is close to the budget), else the head of the value — text cut at a clean
 * boundary, structure cut on items and keys — with a last line naming the handle under which the
 * whole value waits for `read_result`.
 */
import type { CallerInfo } from "../caller-info.js";
import type { ToolDefinition } from "../plugin-contract.js";
import type { ToolSuccess } from "../tool-result.js";
import { cleanCutEnd } from "./clean-cut.js";
import { cutValue, jsonSizeUpTo } from "./cut-value.js";
import { formatCount, type OmittedPart, type TruncatedResult } from "./result-budget.js";
import type { ResultStore } from "./result-store.js";

/** What bounding one result needs. */
export interface BoundingContext {
  store: ResultStore;
  maxChars: number;
  /** The caller's session: only it (and the host) may read the handle. */
  scope: string | undefined;
  /**
   * Keep `value` whole and bound only the text: the tool declares an outputSchema, a contract its
   * value must keep (MCP clients check `structuredContent` against it).
   */
  keepValue: boolean;
}

/** How many times a structured cut is retried smaller when JSON escapes made it longer than estimated. */
const MAX_CUT_ATTEMPTS = 4;

/** The `read_result` call a model makes next: a text page from `offset` when `path` is absent. */
function readCall(handle: string, path: string | undefined, offset?: number): string {
  return `read_result ${JSON.stringify({ handle, ...(path === undefined ? {} : { path }), ...(offset === undefined ? {} : { offset }) })}`;
}

function notKept(left: number): string {
  return `[… ${formatCount(left)} more characters left out; too large to keep for read_result]`;
}

function describeOmitted(omitted: OmittedPart[]): string {
  const shown = omitted.slice(0, 3).map((part) => `${formatCount(part.left)} of ${formatCount(part.of)} ${part.unit} at ${part.path}`);
  return shown.join("; ") + (omitted.length > 3 ? `; and ${omitted.length - 3} more places` : "");
}

function bounded(result: ToolSuccess, value: unknown, truncated: TruncatedResult): ToolSuccess {
  const { content: _content, ...rest } = result;
  return { ...rest, value, truncated };
}

function boundText(result: ToolSuccess, text: string, context: BoundingContext): ToolSuccess {
  const { store, maxChars } = context;
  const handle = store.createHandle();
  const end = cleanCutEnd(text, 0, maxChars);
  const left = text.length - end;
  const kept = store.put({ handle, tool: result.tool, value: text, text, maxChars, scope: context.scope });
  const line = kept ? `[… ${formatCount(left)} more characters: ${readCall(handle, undefined, end)}]` : notKept(left);
  const shown = `${text.slice(0, end)}\n${line}`;
  const truncated: TruncatedResult = { ...(kept ? { handle } : {}), text: shown, totalChars: text.length, maxChars, omitted: [{ path: "$", unit: "characters", left, of: text.length }] };
  return bounded(result, context.keepValue ? text : shown, truncated);
}

function boundStructured(result: ToolSuccess, json: string, context: BoundingContext): ToolSuccess {
  const { store, maxChars } = context;
  const handle = store.createHandle();
  let budget = maxChars;
  let cut = cutValue(result.value, budget, (path) => readCall(handle, path));
  let head = JSON.stringify(cut.value);
  for (let attempt = 1; attempt < MAX_CUT_ATTEMPTS && head.length > maxChars; attempt++) {
    budget = Math.floor((budget * maxChars * 0.9) / head.length);
    cut = cutValue(result.value, budget, (path) => readCall(handle, path));
    head = JSON.stringify(cut.value);
  }
  // Escapes everywhere (a value of quotes and control characters): its JSON cut as text is still readable.
  if (head.length > maxChars) {
    head = json.slice(0, cleanCutEnd(json, 0, maxChars));
    cut = { value: head, omitted: [{ path: "$", unit: "characters", left: json.length - head.length, of: json.length }] };
  }
  const kept = store.put({ handle, tool: result.tool, value: result.value, text: json, maxChars, scope: context.scope });
  const first = cut.omitted[0]!;
  const next = first.unit === "items" ? readCall(handle, first.path, first.of - first.left) : first.unit === "characters" && first.path === "$" ? readCall(handle, undefined, head.length) : readCall(handle, first.path);
  const line = kept ? `[… left out: ${describeOmitted(cut.omitted)}; ${formatCount(json.length)} characters in all: ${next}]` : notKept(json.length - head.length);
  const truncated: TruncatedResult = { ...(kept ? { handle } : {}), text: `${head}\n${line}`, totalChars: json.length, maxChars, omitted: cut.omitted };
  return bounded(result, context.keepValue ? result.value : cut.value, truncated);
}

/**
 * @example
 * const shown = boundResult(result, { store, maxChars: 25_000, scope: undefined, keepValue: false });
 * if (shown.truncated) console.log(shown.truncated.text); // the head, then "[… 4,975,000 more characters: read_result {…}]"
 */
export function boundResult(result: ToolSuccess, context: BoundingContext): ToolSuccess {
  const { value } = result;
  const { maxChars } = context;
  if (typeof value === "string") return value.length <= maxChars ? result : boundText(result, value, context);
  const estimate = jsonSizeUpTo(value, maxChars);
  // The estimate ignores escapes: only a value near the budget pays for its exact JSON.
  if (estimate <= maxChars / 2) return result;
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return result;
  }
  if (json === undefined || json.length <= maxChars) return result;
  return boundStructured(result, json, context);
}

/** The executor's side of bounding: its store and its budget when a tool names none. */
export interface ResultBounds {
  store: ResultStore;
  /** The project's budget now: the `results.maxChars` option, else tools.json's `defaults.results.maxChars`, else 25,000. */
  maxChars(): number;
}

/** A bounded call's result: the tool's own budget, else the project's; scoped to the caller's session. */
export function boundToolResult(result: ToolSuccess, definition: ToolDefinition, bounds: ResultBounds, caller: CallerInfo | undefined): ToolSuccess {
  const maxChars = definition.results?.maxChars ?? bounds.maxChars();
  return boundResult(result, { store: bounds.store, maxChars, scope: caller?.sessionId, keepValue: definition.outputSchema !== undefined });
}
