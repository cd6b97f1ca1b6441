/**
 * The one runner behind every provider's `run*ToolCalls`: each call's name mapped back, its arguments
 * parsed (a parse failure is an `INVALID_INPUT` answer the model reads) and restored, then every call
 * started at once through `executor.callTool` (bounded: see `ToolCallAnswer.text`) — a tool that is not `parallel` still runs its calls one
 * at a time there — under the caller's signal and one deadline for the whole batch.
 */
import { MAX_TIMEOUT_MS, ToolexecError, type Executor, type ToolProgress, type ToolResult } from "../index.js";
import { isPlainObject } from "./is-plain-object.js";
import { kindOf } from "./kind-of.js";
import type { ToolMapping } from "./tool-mapping.js";

/** Options of every `run*ToolCalls` function. */
export interface RunToolCallsOptions {
  /** The mapping returned with the tools; without it, names and arguments are used as they come. */
  mapping?: ToolMapping;
  /** Aborting it cancels every call still running (each answers `CANCELLED`). */
  signal?: AbortSignal;
  /** Time for the whole batch, queueing included; calls still running then answer `TIMEOUT`. */
  timeoutMs?: number;
  /**
   * Told when a call is handed to the executor (`start`; a tool that is not `parallel` may still queue
   * it), when its tool reports progress, and when it ends (every call ends, one refused before it ran
   * too); `completed` of `total` calls have ended. A throw here is ignored.
   */
  onProgress?: (event: ToolCallProgressEvent) => void;
}

/** A step of a batch of tool calls; `tool` is the registry name. */
export type ToolCallProgressEvent = { call: ProviderToolCall; tool: string; completed: number; total: number } & ToolCallStep;

type ToolCallStep = { type: "start" } | { type: "progress"; progress: ToolProgress } | { type: "end"; answer: ToolCallAnswer };

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
  /**
   * For the model: the value (a string as is, anything else as JSON), or `CODE: message`. A value over
   * the tool's result budget is its head and a last line naming the handle `read_result` pages through.
   */
  text: string;
  isError: boolean;
}

const RUN_OPTION_KEYS = ["mapping", "signal", "timeoutMs", "onProgress"];

/** What is wrong with the values of run options (`mapping`, `signal`, `timeoutMs`, `onProgress`), one sentence each. */
export function runOptionProblems(options: Record<string, unknown>): string[] {
  const { mapping, signal, timeoutMs, onProgress } = options;
  const problems: string[] = [];
  if (signal !== undefined && !(signal instanceof AbortSignal)) problems.push(`Expected an AbortSignal, got ${kindOf(signal)} at options.signal`);
  if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && Number.isSafeInteger(timeoutMs) && timeoutMs >= 1 && timeoutMs <= MAX_TIMEOUT_MS)) {
    problems.push(`Expected a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, got ${typeof timeoutMs === "number" ? timeoutMs : kindOf(timeoutMs)} at options.timeoutMs`);
  }
  if (onProgress !== undefined && typeof onProgress !== "function") problems.push(`Expected a function, got ${kindOf(onProgress)} at options.onProgress`);
  const isMapping = typeof mapping === "object" && mapping !== null && typeof (mapping as ToolMapping).fromProvider === "function" && typeof (mapping as ToolMapping).restoreArguments === "function";
  if (mapping !== undefined && !isMapping) problems.push(`Expected the mapping returned with the tools (by to*Tools), got ${kindOf(mapping)} at options.mapping`);
  return problems;
}

/** Throws `INVALID_OPTIONS` naming every problem of a run function's options. */
function checkRunOptions(options: unknown): void {
  const problems = !isPlainObject(options)
    ? [`Expected an object, got ${kindOf(options)} at options`]
    : [
        ...Object.keys(options).filter((key) => !RUN_OPTION_KEYS.includes(key)).map((key) => `Unknown option "${key}" at options; expected one of ${RUN_OPTION_KEYS.join(", ")}`),
        ...runOptionProblems(options),
      ];
  if (problems.length > 0) throw new ToolexecError("INVALID_OPTIONS", `Invalid tool-call options: ${problems.join("; ")}`, { details: { problems } });
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

/**
 * Run `calls` concurrently; resolves to one answer per call, in order. Never rejects for a fault of a
 * call; rejects with `INVALID_OPTIONS` for wrong options, before any call runs.
 */
export async function runToolCalls(executor: CallingExecutor, calls: readonly ProviderToolCall[], options: RunToolCallsOptions = {}): Promise<ToolCallAnswer[]> {
  checkRunOptions(options);
  const deadline = new AbortController();
  const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => deadline.abort(), options.timeoutMs);
  const signal = options.signal === undefined ? deadline.signal : AbortSignal.any([options.signal, deadline.signal]);
  const batch: Batch = { signal, deadline: deadline.signal, completed: 0, total: calls.length };
  try {
    return await Promise.all(calls.map((call) => runOne(executor, call, batch, options)));
  } finally {
    clearTimeout(timer);
  }
}

interface Batch {
  signal: AbortSignal;
  deadline: AbortSignal;
  completed: number;
  total: number;
}

async function runOne(executor: CallingExecutor, call: ProviderToolCall, batch: Batch, options: RunToolCallsOptions): Promise<ToolCallAnswer> {
  const name = options.mapping?.fromProvider(call.name) ?? call.name;
  const tell = (step: ToolCallStep) => {
    try {
      options.onProgress?.({ call, tool: name, completed: batch.completed, total: batch.total, ...step });
    } catch {
      // A progress listener's fault must not cost the model its answers.
    }
  };
  const answer = await answerOne(executor, call, name, batch, options, tell);
  batch.completed += 1;
  tell({ type: "end", answer });
  return answer;
}

async function answerOne(executor: CallingExecutor, call: ProviderToolCall, name: string, batch: Batch, options: RunToolCallsOptions, tell: (step: ToolCallStep) => void): Promise<ToolCallAnswer> {
  const parsed = parseArguments(call.arguments);
  if (!parsed.ok) return { call, result: undefined, text: `INVALID_INPUT: ${parsed.message}`, isError: true };
  const args = options.mapping === undefined ? parsed.value : options.mapping.restoreArguments(name, parsed.value);
  tell({ type: "start" });
  const onProgress = options.onProgress === undefined ? undefined : (progress: ToolProgress) => tell({ type: "progress", progress });
  // Bounded: a model gets the head of a large value and a handle, never the whole of it. The provider's
  // id of the call becomes the span's gen_ai.tool.call.id.
  const result = await executor.callTool(name, args, { signal: batch.signal, bounded: true, ...(onProgress === undefined ? {} : { onProgress }), ...(typeof call.id === "string" && call.id !== "" ? { toolCallId: call.id } : {}) });
  if (result.ok) return { call, result, text: result.truncated?.text ?? valueText(result.value), isError: false };
  // The batch deadline reaches the call as a cancellation; the model should hear that time ran out.
  const timedOut = result.error.code === "CANCELLED" && batch.deadline.aborted && options.signal?.aborted !== true;
  const text = timedOut ? `TIMEOUT: "${call.name}" did not answer within the ${options.timeoutMs} ms given to this batch of tool calls` : `${result.error.code}: ${result.error.message}`;
  return { call, result, text, isError: true };
}
