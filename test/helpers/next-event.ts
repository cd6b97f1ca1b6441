/** Waiting for an executor event instead of sleeping: the real signal that a call started, ended or reloaded. */
import type { Executor, ExecutorEvents } from "../../src/index.js";

/** The next `event` whose payload passes `test`, or a failure after `withinMs`. */
export function nextEvent<Name extends keyof ExecutorEvents>(
  executor: Executor,
  event: Name,
  test: (payload: ExecutorEvents[Name]) => boolean = () => true,
  withinMs = 10_000,
): Promise<ExecutorEvents[Name]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`no matching ${event} within ${withinMs} ms`));
    }, withinMs);
    const unsubscribe = executor.on(event, (payload) => {
      if (!test(payload)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(payload);
    });
  });
}
