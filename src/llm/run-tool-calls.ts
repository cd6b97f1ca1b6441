/**
 * The one runner behind every provider's `run*ToolCalls`: each call's name mapped back, its arguments
 * parsed (a parse failure is an `INVALID_INPUT` answer the model reads) and restored, then every call
 * started at once through `executor.callTool` — a tool that is not `parallel` still runs its calls one
 * at a time there — under the caller's signal and one deadline for the whole batch.
 */
import type { Executor, ToolResult } from "../index.js";
import type { ToolMapping } from "./tool-mapping.js";

/** Options of every `run*ToolCalls` function. */
export interface RunToolCallsOptions {
  /** The mapping returned with the tools; without it, names and arguments are used as they come. */
  mapping?: ToolMapping;
  /** Aborting it cancels every call still running (each answers `CANCELLED`). */
  signal?: AbortSignal;
  /** Time for the whole batch, queueing included; calls still running then answer `TIMEOUT`. */
  timeoutMs?: number;
}

/** A tool call as a provider sent it: arguments as a JSON string (OpenAI) or an object. */
export interface ProviderToolCall {
  id: string;
  name: string;
  arguments: unknown;
}

/** One call's answer: the text the model reads, whether it is an error, and the envelope when the call ran. */
export interface ToolCallAnswer {
  call: ProviderToolCall;
  result: ToolResult | undefined;
  /** For the model: the value (a string as is, anything else as JSON), or `CODE: message`. */
  text: string;
  isError: boolean;
}

/** How much of unparseable arguments is quoted back to the model. */
const MAX_SHOWN_ARGUMENTS = 200;

type CallingExecutor = Pick<Executor, "callTool">;

function parseArguments(raw: unknown): { ok: true; value: unknown } | { ok: false; message: string } {
  if (typeof raw !== "string") return { ok: true, value: raw ?? {} };
  if (raw.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch {
    // The engine's parse message differs between Node versions; the text received is what the model can fix.
    const shown = raw.length > MAX_SHOWN_ARGUMENTS ? `${raw.slice(0, MAX_SHOWN_ARGUMENTS)}…` : raw;
    return { ok: false, message: `the arguments are not valid JSON; send one JSON object. Received: ${shown}` };
  }
}

export function valueText(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? "null";
  } catch {
    return String(value);
  }
}

/** Run `calls` concurrently; resolves to one answer per call, in order. Never rejects for a fault of a call. */
export async function runToolCalls(executor: CallingExecutor, calls: readonly ProviderToolCall[], options: RunToolCallsOptions = {}): Promise<ToolCallAnswer[]> {
  const deadline = new AbortController();
  const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => deadline.abort(), options.timeoutMs);
  const signal = options.signal === undefined ? deadline.signal : AbortSignal.any([options.signal, deadline.signal]);
  try {
    return await Promise.all(calls.map((call) => runOne(executor, call, signal, deadline.signal, options)));
  } finally {
    clearTimeout(timer);
  }
}

async function runOne(executor: CallingExecutor, call: ProviderToolCall, signal: AbortSignal, deadline: AbortSignal, options: RunToolCallsOptions): Promise<ToolCallAnswer> {
  const parsed = parseArguments(call.arguments);
  if (!parsed.ok) return { call, result: undefined, text: `INVALID_INPUT: ${parsed.message}`, isError: true };
  const name = options.mapping?.fromProvider(call.name) ?? call.name;
  const args = options.mapping === undefined ? parsed.value : options.mapping.restoreArguments(name, parsed.value);
  const result = await executor.callTool(name, args, { signal });
  if (result.ok) return { call, result, text: valueText(result.value), isError: false };
  // The batch deadline reaches the call as a cancellation; the model should hear that time ran out.
  const timedOut = result.error.code === "CANCELLED" && deadline.aborted && options.signal?.aborted !== true;
  const text = timedOut ? `TIMEOUT: "${call.name}" did not answer within the ${options.timeoutMs} ms given to this batch of tool calls` : `${result.error.code}: ${result.error.message}`;
  return { call, result, text, isError: true };
}
