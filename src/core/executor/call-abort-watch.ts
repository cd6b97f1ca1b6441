/**
 * How a built-in plugin learns that a call it runs was aborted (the caller's signal, the deadline,
 * the executor closing) without the call's `signal`: reading `signal` makes an AbortController,
 * and with a listener on it that cost code mode about 10 µs and 1 KB of objects that lived through
 * a scavenge on every run, most of which are never aborted. Internal: not part of the plugin contract.
 */
import type { ToolexecError } from "../errors/toolexec-error.js";
import type { PluginCallOptions } from "../plugin-contract.js";

/** What the pipeline's running call offers (running-call.ts). */
export interface AbortWatchable {
  /** Why the call was aborted, once it is. */
  readonly abortReason: ToolexecError | undefined;
  /** The call's signal, made on first read (plugin-call-options.ts reads it for `options.signal`). */
  readonly signal: AbortSignal;
  /** One listener at a time, told once; at once when the call is already aborted. Returns the function that stops it. */
  watchAbort(listener: (reason: ToolexecError) => void): () => void;
}

const WATCHABLE = Symbol("toolexec.abortWatchable");

/** Set by the pipeline on the options it hands a plugin. */
export function offerAbortWatch(options: PluginCallOptions, call: AbortWatchable): void {
  Object.defineProperty(options, WATCHABLE, { value: call });
}

/** The running call behind a plugin's call options; undefined when they did not come from the pipeline (a plugin called directly). */
export function abortWatchOf(options: PluginCallOptions): AbortWatchable | undefined {
  return (options as { [WATCHABLE]?: AbortWatchable })[WATCHABLE];
}
