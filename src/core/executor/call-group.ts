/**
 * The calls a built-in plugin makes for one piece of its own work, cancelled together when that
 * work ends: code mode's run, whose tool calls still under way stop when the run does, and whose
 * later ones are refused. The same as passing each call one AbortSignal that is aborted at the end,
 * without the AbortController, the listener and the abort event a run used to cost (they were a
 * tenth of a three-call composition's host CPU). Internal: not part of the plugin contract.
 */
import type { ToolexecError } from "../errors/toolexec-error.js";
import type { CallToolOptions } from "../plugin-contract.js";

/** A call under way as a group holds it (running-call.ts). */
export interface GroupedCall {
  /** Cancel it as its caller's signal would: `CANCELLED`, "was cancelled by the caller". */
  cancelByCaller(): void;
}

export class CallGroup {
  /** Why the group ended, once it has: its calls made since are cancelled before they start. */
  endedWith: ToolexecError | undefined = undefined;
  /**
   * In the order they joined. An array, not a Set: a run's calls mostly come one at a time, and a
   * Set that empties shrinks its table and grows it again at the next call (two tables per call).
   */
  private readonly calls: GroupedCall[] = [];

  join(call: GroupedCall): void {
    this.calls.push(call);
  }

  leave(call: GroupedCall): void {
    const { calls } = this;
    const index = calls.lastIndexOf(call);
    if (index < 0) return;
    for (let next = index + 1; next < calls.length; next++) calls[next - 1] = calls[next]!;
    calls.pop();
  }

  /** End the group: cancel its calls under way. */
  end(reason: ToolexecError): void {
    if (this.endedWith) return;
    this.endedWith = reason;
    const under = this.calls.slice();
    this.calls.length = 0;
    for (const call of under) call.cancelByCaller();
  }
}

const GROUP = Symbol("toolexec.callGroup");

/** `options` (the plugin's own, fresh) for a call in `group`. */
export function inCallGroup(options: CallToolOptions, group: CallGroup): CallToolOptions {
  Object.defineProperty(options, GROUP, { value: group });
  return options;
}

/** The group a call's options name (read by the pipeline with the rest of the options). */
export function callGroupOf(options: object): CallGroup | undefined {
  const group = (options as { [GROUP]?: unknown })[GROUP];
  return group instanceof CallGroup ? group : undefined;
}
