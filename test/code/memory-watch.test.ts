/** The memory watchdog's one interval (memory-watch.ts): every watched run is checked on each tick, until it is unwatched. */
import { describe, expect, it } from "vitest";
import { unwatchMemory, watchMemory, type MemoryWatched } from "../../src/plugins/code/memory-watch.js";

function counter(onCheck: (self: MemoryWatched & { checks: number }) => void = () => {}): MemoryWatched & { checks: number } {
  const run = {
    checks: 0,
    checkMemory() {
      run.checks++;
      onCheck(run);
    },
  };
  return run;
}

describe("watchMemory", () => {
  it("checks each watched run on every tick, and an unwatched one no more", async () => {
    const first = counter();
    const second = counter();
    watchMemory(first);
    watchMemory(second);
    await expect.poll(() => first.checks, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    unwatchMemory(first);
    const after = first.checks;
    // The second run is the clock: three more ticks, none of them for the first.
    const target = second.checks + 3;
    await expect.poll(() => second.checks, { timeout: 5_000 }).toBeGreaterThanOrEqual(target);
    expect(first.checks).toBe(after);
    unwatchMemory(second);
  });

  it("goes on to the other runs when a check ends its own run", async () => {
    const ending = counter((self) => unwatchMemory(self));
    const other = counter();
    watchMemory(ending);
    watchMemory(other);
    await expect.poll(() => other.checks, { timeout: 5_000 }).toBeGreaterThanOrEqual(3);
    expect(ending.checks).toBe(1);
    unwatchMemory(other);
  });
});
