/**
 * How a code run learns that its call was cancelled (the caller's signal, the call's deadline, the
 * executor closing): from the pipeline's running call when the call came through the pipeline, so a
 * run that is never cancelled (nearly all) makes no AbortController and adds no listener; from the
 * call's `signal` when the plugin is called directly.
 */
import type { ErrorCode } from "../../core/errors/error-codes.js";
import { abortWatchOf } from "../../core/executor/call-abort-watch.js";
import type { PluginCallOptions } from "../../core/plugin-contract.js";

export interface CallCancellation {
  /** Why the call was cancelled, or undefined while it is not. */
  reason(): unknown;
  /** Tell `listener` once the call is cancelled (at once if it is); returns the function that stops it. One listener at a time. */
  watch(listener: (reason: unknown) => void): () => void;
  /** The call's signal, made on first use: only a run that waits in the pool's queue needs one. */
  signal(): AbortSignal;
}

export function callCancellation(options: PluginCallOptions): CallCancellation {
  const running = abortWatchOf(options);
  if (running) return { reason: () => running.abortReason, watch: (listener) => running.watchAbort(listener), signal: () => options.signal };
  const { signal } = options;
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
    signal: () => signal,
  };
}

/** The error code of a cancellation's reason (a ToolexecError's code; CANCELLED otherwise). */
export function cancelCode(reason: unknown): ErrorCode {
  const code = (reason as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? (code as ErrorCode) : "CANCELLED";
}
