/** One abort listener per signal, told to every watcher (src/core/schedule/shared-abort-watch.ts). */
import * as events from "node:events";
import { describe, expect, it } from "vitest";
import { watchSharedAbort } from "../../src/core/schedule/shared-abort-watch.js";

/** The abort listeners EventTarget holds for `signal` (Node's own count, as its leak warning reads it); this @types/node lacks its type. */
const { getEventListeners } = events as unknown as { getEventListeners(target: EventTarget, type: string): unknown[] };
const listenerCount = (signal: AbortSignal) => getEventListeners(signal, "abort").length;

describe("watchSharedAbort", () => {
  it("tells every watcher the reason, through one listener on the signal", () => {
    const controller = new AbortController();
    const heard: unknown[][] = [[], [], []];
    heard.forEach((list) => watchSharedAbort(controller.signal, (reason) => list.push(reason)));
    expect(listenerCount(controller.signal)).toBe(1);
    const reason = new Error("closing");
    controller.abort(reason);
    expect(heard).toEqual([[reason], [reason], [reason]]);
  });

  it("tells no watcher that stopped, and the others still hear it when one throws", () => {
    const controller = new AbortController();
    const heard: string[] = [];
    const stop = watchSharedAbort(controller.signal, () => heard.push("stopped"));
    watchSharedAbort(controller.signal, () => {
      throw new Error("a watcher's own failure");
    });
    watchSharedAbort(controller.signal, () => heard.push("last"));
    stop();
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    const listeners = process.listeners("uncaughtException");
    process.removeAllListeners("uncaughtException");
    process.on("uncaughtException", onUncaught);
    controller.abort();
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        process.off("uncaughtException", onUncaught);
        for (const listener of listeners) process.on("uncaughtException", listener);
        expect(heard).toEqual(["last"]);
        expect(uncaught).toMatchObject([{ message: "a watcher's own failure" }]);
        resolve();
      }),
    );
  });

  it("tells a watcher of a signal already aborted at once", () => {
    const controller = new AbortController();
    controller.abort("gone");
    const heard: unknown[] = [];
    watchSharedAbort(controller.signal, (reason) => heard.push(reason));
    expect(heard).toEqual(["gone"]);
  });
});
