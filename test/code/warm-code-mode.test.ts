/**
 * Code mode's warm-up (src/plugins/code/warm-code-mode.ts) never competes with a busy host: its steps
 * wait while the event loop is busy (as when `toolexec serve` loads its MCP server as the runtime
 * comes up), run once it is idle, and stop when the plugin closes.
 */
import { performance } from "node:perf_hooks";
import { expect, it, vi } from "vitest";
import { warmCodeMode } from "../../src/plugins/code/warm-code-mode.js";

/** Keep the event loop busy for `ms`: synchronous slices of 20 ms, one per turn, as module loading does. */
async function keepBusy(ms: number): Promise<void> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const slice = performance.now() + 20;
    while (performance.now() < slice) {
      // busy
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

it("waits while the host's event loop is busy, then runs its steps in order once it is idle", async () => {
  const ran: string[] = [];
  warmCodeMode(new AbortController().signal, [() => ran.push("first"), () => ran.push("second")]);
  await keepBusy(300);
  expect(ran).toEqual([]);
  await vi.waitFor(() => expect(ran).toEqual(["first", "second"]), { timeout: 10_000, interval: 10 });
});

it("runs nothing once its signal aborted, and stops at a step that throws (the first run does that work itself)", async () => {
  const closing = new AbortController();
  const ran: string[] = [];
  warmCodeMode(closing.signal, [() => ran.push("never")]);
  closing.abort();
  const failing = new AbortController();
  warmCodeMode(failing.signal, [
    () => {
      throw new Error("a failed step costs nothing");
    },
    () => ran.push("never after a failure"),
  ]);
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(ran).toEqual([]);
});
