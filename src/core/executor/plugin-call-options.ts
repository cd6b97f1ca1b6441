/**
 * The options the pipeline hands a plugin's call. `signal` is an own, enumerable accessor that
 * makes the call's AbortController on first read (most in-process tools never read it), and its
 * getter is one function shared by every call: an object literal with `get signal()` made a new
 * getter per call, which V8 keeps in a property map of its own outside the young generation, so
 * every call's objects (the running call, its closures, its id) outlived the scavenges until a
 * full GC — about 1.5 KB promoted per call, and scavenges that took most of a no-op call's CPU.
 */
import type { CallerInfo, CallToolOptions, PluginCallOptions } from "../plugin-contract.js";
import type { ToolResult } from "../tool-result.js";
import { abortWatchOf, offerAbortWatch, type AbortWatchable } from "./call-abort-watch.js";

const SIGNAL: PropertyDescriptor = {
  get(this: PluginCallOptions): AbortSignal {
    return abortWatchOf(this)!.signal;
  },
  enumerable: true,
  configurable: true,
};

/** `running`'s options for its plugin: its signal (made when read), deadline, sub-call function and caller. */
export function createPluginCallOptions(
  running: AbortWatchable,
  deadline: number,
  callTool: (name: string, args?: unknown, options?: CallToolOptions) => Promise<ToolResult>,
  caller: CallerInfo | undefined,
): PluginCallOptions {
  const options = {} as PluginCallOptions;
  // The accessor first, so the keys keep their order (signal, deadline, callTool, caller).
  Object.defineProperty(options, "signal", SIGNAL);
  options.deadline = deadline;
  options.callTool = callTool;
  if (caller !== undefined) options.caller = caller;
  offerAbortWatch(options, running);
  return options;
}
