/**
 * How a code run learns that its call was cancelled (the caller's signal, the call's deadline, the
 * executor closing): from the pipeline's running call when the call came through the pipeline, so a
 * run that is never cancelled (nearly all) makes no AbortController and adds no listener, waiting
 * for a runtime or running; from the call's `signal` when the plugin is called directly.
 */
import type { ErrorCode } from "../../core/errors/error-codes.js";
import { abortWatchOf } from "../../core/executor/call-abort-watch.js";
import type { AbortWatchable } from "../../core/executor/call-abort-watch.js";
import type { PluginCallOptions } from "../../core/plugin-contract.js";

/** A cancellation as a wait needs it (runtime-pool.ts): its reason once cancelled, and one listener at a time. */
export interface Cancellation {
  /** Why it was cancelled, or undefined while it is not. */
  reason(): unknown;
  /** Tell `listener` once it is cancelled (at once if it is); returns the function that stops it. One listener at a time. */
  watch(listener: (reason: unknown) => void): () => void;
}

/** A class: one small object per run, where two closures and their context were three. */
class RunningCallCancellation implements Cancellation {
  constructor(private readonly running: AbortWatchable) {}

  reason(): unknown {
    return this.running.abortReason;
  }

  watch(listener: (reason: unknown) => void): () => void {
    return this.running.watchAbort(listener);
  }
}

export function callCancellation(options: PluginCallOptions): Cancellation {
  const running = abortWatchOf(options);
  return running ? new RunningCallCancellation(running) : signalCancellation(options.signal);
}

/** The same over an AbortSignal (a plugin called directly, or a test's). */
export function signalCancellation(signal: AbortSignal): Cancellation {
  return {
    reason: () => (signal.aborted ? signal.reason : undefined),
    watch(listener) {
      if (signal.aborted) {
        listener(signal.reason);
        return () => undefined;
      }
      const onAbort = () => listener(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      return () => signal.removeEventListener("abort", onAbort);
    },
  };
}

/** The error code of a cancellation's reason (a ToolexecError's code; CANCELLED otherwise). */
export function cancelCode(reason: unknown): ErrorCode {
  const code = (reason as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? (code as ErrorCode) : "CANCELLED";
}
