/**
 * Which saved tools are running in the chain of calls that led here, carried through the pipeline
 * by async context: a saved tool's run makes its tool calls inside its chain, so a saved tool
 * called from there (however many other tools sit between) sees it, and a loop is stopped at a
 * depth limit instead of running until the deadline.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const chain = new AsyncLocalStorage<readonly string[]>();

/** The saved tools running in the current chain of calls, outermost first. */
export function currentSavedToolChain(): readonly string[] {
  return chain.getStore() ?? [];
}

/**
 * Whether the current call was made by a code run (which holds a runtime while it waits for the
 * call): a code run it starts may then borrow a runtime beyond the pool's size, or nesting would
 * deadlock a full pool.
 */
export function isCalledFromCodeRun(): boolean {
  return chain.getStore() !== undefined;
}

/** Run `task` (a tool call made by a code run) inside `savedTools`' chain. */
export function withinSavedToolChain<Value>(savedTools: readonly string[], task: () => Value): Value {
  return chain.run(savedTools, task);
}
