/**
 * Runs one call of a Python function on a warm worker. At the deadline (or on cancel) the worker's
 * whole process group is killed, since a C-level `time.sleep` or a busy loop cannot be interrupted
 * from inside; the pool starts a fresh worker once it has exited.
 */
import { abortReasonCode, type Logger, type PluginResult, type ToolCall, type ToolProgress } from "../../core/plugin-contract.js";
import { toolError } from "../../core/tool-result.js";
import type { PythonTool } from "./python-tools.js";
import { importedModuleFields, moduleFields, noteImport } from "./contain-module.js";
import { lastLineOf, type PythonWorker, type WorkerAnswer, type WorkerEvent } from "./python-worker.js";
import { annotateActiveSpan } from "../../core/telemetry/span-context.js";
import { ATTRIBUTE } from "../../core/telemetry/telemetry-names.js";
import { WorkerBackoffError, type WorkerPool } from "./worker-pool.js";

function stoppedMessage(entry: PythonTool, signal: AbortSignal, started: boolean, concurrent = false): string {
  const label = `${entry.modulePath}:${entry.function}`;
  const code = abortReasonCode(signal);
  // An overlapping async call is cancelled on its worker's event loop: the worker and its other calls go on.
  if (started && concurrent) return `${label} was ${code === "TIMEOUT" ? "still running at the call's deadline" : code === "EXECUTOR_CLOSED" ? "stopped because the executor closed" : "cancelled"}; its task was cancelled on the worker's event loop`;
  if (!started) return code === "TIMEOUT" ? `${label} did not start before its deadline` : `${label} was not started: the call was stopped (${code})`;
  if (code === "TIMEOUT") return `${label} was still running at the call's deadline; its worker's process group was killed and a fresh worker takes the next call`;
  if (code === "EXECUTOR_CLOSED") return `${label} was stopped because the executor closed; its worker was killed`;
  return `${label} was cancelled; its worker's process group was killed and a fresh worker takes the next call`;
}

/** A call refused without a spawn: the pool waits after worker failures in a row. */
function backingOff(entry: PythonTool, error: WorkerBackoffError): PluginResult {
  const retryAfterMs = Math.max(0, error.nextAttemptAt - Date.now());
  return toolError(
    "SERVICE_UNAVAILABLE",
    `No Python worker for ${entry.modulePath}:${entry.function}: ${error.message}. The next worker starts in ${retryAfterMs} ms at the earliest (${new Date(error.nextAttemptAt).toISOString()})`,
    { nextAttemptAt: error.nextAttemptAt, retryAfterMs, failures: error.failures, lastError: error.lastFailure },
  );
}

/** A worker's answer for a call that did not succeed, as the call's result. */
function failureOf(entry: PythonTool, answer: WorkerAnswer, logs: string): PluginResult {
  const details: Record<string, unknown> = {};
  if (typeof answer["type"] === "string") details["exception"] = answer["type"];
  if (typeof answer["traceback"] === "string") details["traceback"] = answer["traceback"];
  if (logs !== "") details["logs"] = logs;
  if (typeof answer["line"] === "number") details["line"] = answer["line"];
  const message = String(answer["message"]);
  switch (answer["code"]) {
    case "MEMORY_LIMIT":
      return toolError("MEMORY_LIMIT", `${entry.function} ran out of memory: its worker may use ${entry.memoryLimitMb ?? "?"} MiB (memoryLimitMb); a fresh worker takes the next call`, details);
    case "INVALID_INPUT":
      return toolError("INVALID_INPUT", `${entry.function} refused its arguments: ${message}`, details);
    case "INVALID_OUTPUT":
      return toolError("INVALID_OUTPUT", `${entry.function} returned a value with no JSON form: ${message}`, details);
    case "IMPORT_FAILED":
      return toolError("TOOL_FAILED", `tools/${entry.modulePath}${typeof answer["line"] === "number" ? `:${answer["line"]}` : ""} failed to import: ${message}`, details);
    default:
      return toolError("TOOL_FAILED", `${entry.function} raised ${message}`, details);
  }
}

/** How long a cancelled concurrent call may take to stop before its worker (and its other calls) is killed. */
export const CANCEL_GRACE_MS = 2_000;

export interface CallFunctionOptions {
  signal: AbortSignal;
  logger: Logger;
  root: string;
  /** Set for a parallel `async def` tool: the call shares a worker's event loop with up to this many. */
  concurrentLimit?: number;
  onProgress?(progress: ToolProgress): void;
  /** A log line the function sent through a FastMCP `Context` (`ctx.info(...)`). */
  onLog?(level: string, message: string): void;
}

/** A call's events: progress to the call's progress, log lines to the caller. */
function eventHandler(options: CallFunctionOptions) {
  return (event: WorkerEvent) => {
    if (event.event === "progress" && typeof event["progress"] === "number") {
      options.onProgress?.({ progress: event["progress"], ...(typeof event["total"] === "number" ? { total: event["total"] } : {}), ...(typeof event["message"] === "string" ? { message: event["message"] } : {}) });
    } else if (event.event === "log") options.onLog?.(String(event["level"]), String(event["message"]));
  };
}

/**
 * @example
 * const result = await callFunction(pool, entry, call, { signal, logger, root });
 */
export async function callFunction(pool: WorkerPool, entry: PythonTool, call: ToolCall, options: CallFunctionOptions): Promise<PluginResult> {
  const { signal } = options;
  const concurrent = options.concurrentLimit !== undefined;
  // A warm idle worker is taken without a promise: the common case of a warm pool.
  let worker = signal.aborted || concurrent ? undefined : pool.takeIdle();
  if (!worker) {
    try {
      worker = concurrent ? await pool.acquireShared(signal, options.concurrentLimit!) : await pool.acquire(signal);
    } catch (error) {
      if (error instanceof WorkerBackoffError) return backingOff(entry, error);
      return toolError("TOOL_FAILED", `No Python worker for ${entry.modulePath}: ${(error as Error).message}`);
    }
  }
  if (!worker) return toolError(abortReasonCode(signal), stoppedMessage(entry, signal, false));
  const release = (held: PythonWorker) => (concurrent ? pool.releaseShared(held) : pool.release(held));
  if (signal.aborted) {
    // Aborted while a worker was starting: the listener below would never fire.
    release(worker);
    return toolError(abortReasonCode(signal), stoppedMessage(entry, signal, false));
  }
  const target = worker.imported.has(entry.module) ? importedModuleFields(entry) : await moduleFields(worker, entry, options.root);
  if (!target.ok) {
    release(worker);
    return { ok: false, error: target.error };
  }
  annotateActiveSpan(() => ({ [ATTRIBUTE.processPid]: worker.pid, [ATTRIBUTE.workerModule]: entry.module }));
  const named = entry.marked ? { tool: entry.function } : { function: entry.function };
  const message: Record<string, unknown> = { op: "call", ...target.fields, ...named, arguments: call.arguments, executionId: call.executionId, ...(concurrent ? { concurrent: true } : {}) };
  let grace: NodeJS.Timeout | undefined;
  // A concurrent call is cancelled alone, on the worker's event loop; one that does not stop in time takes its worker with it.
  const onAbort = concurrent
    ? () => {
        worker.cancel(message["id"] as number);
        grace = setTimeout(() => worker.kill(), CANCEL_GRACE_MS);
      }
    : () => worker.kill();
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    const answer = await worker.request(message, eventHandler(options));
    if (signal.aborted) return toolError(abortReasonCode(signal), stoppedMessage(entry, signal, true, concurrent));
    noteImport(worker, entry.module, answer);
    const logs = typeof answer["logs"] === "string" ? answer["logs"] : "";
    if (logs !== "") options.logger.debug(`Output of ${entry.name}`, { tool: entry.name, executionId: call.executionId, logs });
    if (answer.ok) return { ok: true, value: answer["value"] };
    if (answer["code"] === "MEMORY_LIMIT") worker.kill(); // it exits after this answer; it must not take another call meanwhile
    return failureOf(entry, answer, logs);
  } catch (error) {
    if (signal.aborted) return toolError(abortReasonCode(signal), stoppedMessage(entry, signal, true));
    const stderr = worker.stderrTail();
    const said = lastLineOf(stderr);
    return toolError("TOOL_FAILED", `The Python worker running ${entry.modulePath}:${entry.function} ${(error as Error).message.replace(/^Python worker /, "")} during the call; a fresh worker takes the next call${said ? `. Last line of stderr: ${said}` : ""}`, stderr ? { stderr } : undefined);
  } finally {
    clearTimeout(grace);
    signal.removeEventListener("abort", onAbort);
    release(worker);
  }
}
