/**
 * A call under way, as the pipeline tracks it: its abort controller (aborted at the deadline, on
 * the caller's signal or on close), the plugin's answer raced against that abort with a short grace,
 * and the concurrency slot it may lend to its sub-calls. A class, so the per-call hot path allocates
 * one object instead of a handful of closures.
 */
import type { Context } from "@opentelemetry/api";
import { performance } from "node:perf_hooks";
import { ToolexecError } from "../errors/toolexec-error.js";
import type { CallerInfo, PluginResult } from "../plugin-contract.js";
import type { FifoSemaphore } from "../schedule/fifo-semaphore.js";
import { toolError } from "../tool-result.js";
import { type AbortWatcher, unwatchAbort, watchAbort } from "../schedule/shared-abort-watch.js";
import { CallDeadlines, type Deadlined } from "./call-deadlines.js";
import type { CallGroup, GroupedCall } from "./call-group.js";

/** After the deadline or a cancel, how long a plugin gets to answer with its own details. */
export const ABORT_GRACE_MS = 50;

function checkResultShape(result: unknown, plugin: string): PluginResult {
  const candidate = result as { ok?: unknown; error?: { code?: unknown; message?: unknown } } | null;
  if (candidate?.ok === true) return candidate as PluginResult;
  if (candidate?.ok === false && typeof candidate.error?.code === "string" && typeof candidate.error.message === "string") return candidate as PluginResult;
  return toolError("PLUGIN_FAILED", `Plugin "${plugin}" returned a malformed result: expected { ok: true, value } or { ok: false, error: { code, message } }`);
}

/**
 * What becomes of the plugin's answer: the pipeline's end of the call (output check, envelope,
 * log, events). The answer's promise resolves to it, so no async frame waits between the two.
 */
export interface CallCompletion<Result> {
  complete(outcome: PluginResult): Result;
}

/** The answer promise's settling functions, as `new Promise` hands them out (no executor closure per call). */
let resolveNext: ((value: unknown) => void) | undefined;
let rejectNext: ((error: unknown) => void) | undefined;
const takeSettlers = (resolve: (value: unknown) => void, reject: (error: unknown) => void) => {
  resolveNext = resolve;
  rejectNext = reject;
};

/** Every pipeline's calls share one deadline timer. */
const deadlines = new CallDeadlines();

function endGrace(call: RunningCall): void {
  const reason = call.abortReason!;
  call.settle(toolError(reason.code, reason.message));
}

export class RunningCall implements Deadlined, GroupedCall, AbortWatcher {
  /** Made when someone asks for the signal: most in-process plugins never do. */
  private controller: AbortController | undefined = undefined;
  /** Why the call was aborted; set once. */
  abortReason: ToolexecError | undefined = undefined;
  /** Set while the call holds a concurrency slot: the one slot its sub-calls may borrow. */
  lentSlot: FifoSemaphore | undefined = undefined;
  holdsSlot = false;
  /** Set by `closeAll` only: called once the call has settled (its log record written). */
  onSettled: (() => void) | undefined = undefined;
  /** Who made the call; its sub-calls inherit it. */
  caller: CallerInfo | undefined = undefined;
  /** The call this one was made for (a sub-call's parent), for `PluginContext.callChain`. */
  parentExecutionId: string | undefined = undefined;
  /** The context of the call's span, when someone traces: its sub-calls' spans are its children. */
  traceContext: Context | undefined = undefined;
  readonly deadline: number;
  earlierDeadline: Deadlined | undefined = undefined;
  laterDeadline: Deadlined | undefined = undefined;
  listed = false;
  private resolveAnswer: ((value: unknown) => void) | undefined = undefined;
  private rejectAnswer: ((error: unknown) => void) | undefined = undefined;
  private completion: CallCompletion<unknown> | undefined = undefined;
  private graceTimer: NodeJS.Timeout | undefined = undefined;
  /** A built-in plugin's listener (call-abort-watch.ts): told of an abort without an AbortController. */
  private abortListener: ((reason: ToolexecError) => void) | undefined = undefined;

  constructor(
    readonly name: string,
    readonly timeoutMs: number,
    private readonly callerSignal: AbortSignal | undefined,
    private readonly group?: CallGroup,
  ) {
    this.deadline = performance.now() + timeoutMs;
    deadlines.add(this);
    if (callerSignal?.aborted || group?.endedWith) this.abort(new ToolexecError("CANCELLED", `"${name}" was cancelled before it started`));
    else {
      // One listener per caller signal, however many calls share it (shared-abort-watch.ts).
      if (callerSignal) watchAbort(callerSignal, this);
      group?.join(this);
    }
  }

  /** The call's signal, made on first use (already aborted, with the same reason, when the call is). */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.abortReason) this.controller.abort(this.abortReason);
    }
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.abortReason !== undefined;
  }

  /** Abort the call (deadline, caller, close): aborts its signal and, while the plugin works, starts its grace period. */
  abort(reason: ToolexecError): void {
    if (this.abortReason) return;
    this.abortReason = reason;
    this.controller?.abort(reason);
    const listener = this.abortListener;
    this.abortListener = undefined;
    listener?.(reason);
    if (this.resolveAnswer) this.graceTimer = setTimeout(endGrace, ABORT_GRACE_MS, this);
  }

  /** See call-abort-watch.ts: one listener at a time, told once, at once when already aborted. */
  watchAbort(listener: (reason: ToolexecError) => void): () => void {
    if (this.abortReason) {
      listener(this.abortReason);
      return () => undefined;
    }
    this.abortListener = listener;
    return () => {
      if (this.abortListener === listener) this.abortListener = undefined;
    };
  }

  /**
   * The plugin's answer, or — once the call is aborted and the grace passes — the abort's own,
   * made into the call's end by `completion` (its fault rejects).
   */
  answer<Result>(plugin: string, start: () => Promise<PluginResult>, completion: CallCompletion<Result>): Promise<Result> {
    const answered = new Promise<Result>(takeSettlers as never);
    this.resolveAnswer = resolveNext;
    this.rejectAnswer = rejectNext;
    this.completion = completion;
    if (this.abortReason) this.graceTimer = setTimeout(endGrace, ABORT_GRACE_MS, this);
    let work: Promise<PluginResult>;
    try {
      work = start();
    } catch (error) {
      this.fail(plugin, error);
      return answered;
    }
    Promise.resolve(work).then(
      (result) => this.settle(checkResultShape(result, plugin)),
      (error: unknown) => this.fail(plugin, error),
    );
    return answered;
  }

  settle(result: PluginResult): void {
    const resolve = this.resolveAnswer;
    if (!resolve) return;
    this.resolveAnswer = undefined;
    clearTimeout(this.graceTimer);
    const completion = this.completion!;
    this.completion = undefined;
    let ended: unknown;
    try {
      ended = completion.complete(result);
    } catch (error) {
      this.rejectAnswer!(error);
      return;
    }
    resolve(ended);
  }

  private fail(plugin: string, error: unknown): void {
    this.settle(toolError("PLUGIN_FAILED", `Plugin "${plugin}" threw while calling "${this.name}": ${(error as Error)?.message ?? String(error)}`));
  }

  /** The caller's signal aborted (shared-abort-watch.ts). */
  signalAborted(): void {
    this.cancelByCaller();
  }

  cancelByCaller(): void {
    this.abort(new ToolexecError("CANCELLED", `"${this.name}" was cancelled by the caller`));
  }

  /** Its deadline passed (call-deadlines.ts). */
  expire(): void {
    this.abort(new ToolexecError("TIMEOUT", `"${this.name}" did not finish within ${this.timeoutMs} ms`));
  }

  /** The call is over: take it off the deadlines, stop its listener, and tell `closeAll`. */
  end(): void {
    deadlines.remove(this);
    if (this.callerSignal) unwatchAbort(this.callerSignal, this);
    this.group?.leave(this);
    this.onSettled?.();
  }
}
