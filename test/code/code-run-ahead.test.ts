/**
 * Runs sent ahead to a busy runtime (real runtimes, the pool and the host's run path as code mode
 * uses them): the runtime holds up to three runs behind the run under way and starts each when the
 * run before it ends. A run sent ahead never runs twice and never takes another caller's run down with it: its
 * runtime's death sends it elsewhere, its deadline or cancel withdraws it while the run under way
 * goes on, and a runtime that goes idle asks for it back.
 */
import { afterAll, describe, expect, it, vi } from "vitest";
import { signalCancellation, type Cancellation } from "../../src/plugins/code/call-cancellation.js";
import { countLines, prepareSource } from "../../src/plugins/code/prepare-source.js";
import { runOnRuntime, type RunOutcome, type RunRequest } from "../../src/plugins/code/run-on-runtime.js";
import { createRuntimePool, type RuntimePool } from "../../src/plugins/code/runtime-pool.js";
import { spawnRuntime, type RuntimeFrame, type RuntimeProcess } from "../../src/plugins/code/runtime-process.js";
import type { RunListener } from "../../src/plugins/code/runtime-runs.js";
import { buildToolCatalog } from "../../src/plugins/code/tool-catalog.js";
import { silentLogger } from "./code-test-helpers.js";

const pools: RuntimePool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.close()));
});

/** The age bound is for its own test: a busy machine may pause this process longer than the default between two acquires. */
function openPool(poolSize: number, aheadMaxAgeMs = 60_000): RuntimePool {
  const pool = createRuntimePool({ poolSize, maxQueue: 10, memoryLimitMb: 256, maxFrameBytes: 1 << 20, logger: silentLogger, aheadMaxAgeMs });
  pools.push(pool);
  return pool;
}

const CATALOG = buildToolCatalog([], [], 1);
/** Keeps the main thread of its runtime busy for `ms` (it reads nothing meanwhile). */
const spin = (ms: number, value: string) => `const end = Date.now() + ${ms};\nwhile (Date.now() < end) {}\n'${value}'`;

function request(code: string, timeoutMs = 30_000, cancellation: Cancellation = signalCancellation(new AbortController().signal)): RunRequest {
  const prepared = prepareSource(code);
  if (!prepared.ok) throw new Error(prepared.message);
  return {
    prepared: prepared.prepared,
    codeLines: countLines(code),
    inputJson: "{}",
    deadline: Date.now() + timeoutMs,
    timeoutMs,
    cancellation,
    catalog: CATALOG,
    dispatch: async () => ({ ok: true, value: null }),
    limits: { maxResultBytes: 1 << 20, maxLogBytes: 1 << 16, maxArgumentBytes: 1 << 20, memoryLimitMb: 256 },
  };
}

/** One run as code mode makes it (code-plugin.ts): acquire, run, release, again elsewhere when it never started. */
async function execute(pool: RuntimePool, code: string, timeoutMs?: number, signal?: AbortSignal): Promise<RunOutcome & { runtimes: RuntimeProcess[] }> {
  const runtimes: RuntimeProcess[] = [];
  const cancellation = signalCancellation(signal ?? new AbortController().signal);
  const run = request(code, timeoutMs, cancellation);
  let outcome: RunOutcome;
  do {
    const runtime = await pool.acquire(run.deadline, cancellation);
    runtimes.push(runtime);
    outcome = await runOnRuntime(runtime, run);
    if (outcome.reusable) pool.release(runtime, outcome.run);
  } while (outcome.notStarted);
  return { ...outcome, runtimes };
}

/** The pool warm with `count` runtimes, all idle. */
async function warmPool(count: number, aheadMaxAgeMs?: number): Promise<RuntimePool> {
  const pool = openPool(count, aheadMaxAgeMs);
  while (pool.stats().runtimes < count || pool.stats().idle < count) {
    await Promise.all(Array.from({ length: count }, () => execute(pool, "0")));
    await vi.waitFor(() => expect(pool.stats().runtimes === pool.stats().idle).toBe(true), { timeout: 30_000 });
  }
  return pool;
}

type Executed = Awaited<ReturnType<typeof execute>>;

/** The run `waiting` waited behind finished on their runtime, which lives on and runs the next. */
async function expectRunBeforeUnharmed(pool: RuntimePool, before: Executed, waiting: Executed): Promise<void> {
  expect(waiting.runtimes).toEqual(before.runtimes);
  expect(value(before)).toBe("finished");
  expect(before.runtimes[0]!.alive).toBe(true);
  expect(value(await execute(pool, "'next'"))).toBe("next");
}

const value = (outcome: RunOutcome) => (outcome.result.ok ? outcome.result.value : outcome.result.error.code);

describe("runs sent ahead to a busy runtime", () => {
  it("hands a run to the runtime under way, which starts it when the run before it ends", async () => {
    const pool = await warmPool(1);
    const first = await pool.acquire(Date.now() + 30_000, new AbortController().signal);
    const running = runOnRuntime(first, request(spin(300, "first")));
    // Not queued in the pool: the busy runtime takes it at once.
    const second = await Promise.race([pool.acquire(Date.now() + 30_000, new AbortController().signal), running.then(() => "waited for the first run")]);
    expect(second).toBe(first);
    expect(pool.stats()).toMatchObject({ runtimes: 1, waiting: 0 });
    const next = runOnRuntime(first, request("'second'"));
    const order: string[] = [];
    const [a, b] = await Promise.all([running.then((outcome) => (order.push("first"), outcome)), next.then((outcome) => (order.push("second"), outcome))]);
    expect([value(a), value(b)]).toEqual(["first", "second"]);
    expect(order).toEqual(["first", "second"]);
    pool.release(first, a.run);
    pool.release(first, b.run);
    expect(value(await execute(pool, "'after'"))).toBe("after");
  });

  it("holds three runs behind the run under way, starts them in the order sent, and queues a fourth in the pool", async () => {
    const pool = await warmPool(1);
    const order: string[] = [];
    const track = (name: string) => (outcome: Executed) => (order.push(name), outcome);
    const busy = execute(pool, spin(500, "finished")).then(track("busy"));
    const second = execute(pool, "'second'").then(track("second"));
    const third = execute(pool, "'third'").then(track("third"));
    const fourth = execute(pool, "'fourth'").then(track("fourth"));
    // Sent by now: acquiring and sending take microtasks and one turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    expect(pool.stats()).toMatchObject({ runtimes: 1, waiting: 0 });
    const fifth = execute(pool, "'fifth'").then(track("fifth"));
    expect(pool.stats()).toMatchObject({ runtimes: 1, waiting: 1 });
    const outcomes = await Promise.all([busy, second, third, fourth, fifth]);
    expect(outcomes.map(value)).toEqual(["finished", "second", "third", "fourth", "fifth"]);
    expect(order).toEqual(["busy", "second", "third", "fourth", "fifth"]);
    // All on the one runtime, each once.
    for (const outcome of outcomes) expect(outcome.runtimes).toEqual([outcomes[0]!.runtimes[0]]);
  });

  it("drops a held run whose deadline passed and starts the one held behind it", async () => {
    const pool = await warmPool(1);
    // The first run yields once (an async call), so the runtime has read both held runs before it spins.
    const busy = execute(pool, `await call_tools([{ server: "s", tool: "t", args: {} }]);\n${spin(1500, "finished")}`);
    const late = execute(pool, "'never ran'", 300);
    const behind = execute(pool, "'behind'");
    const [first, dropped, next] = await Promise.all([busy, late, behind]);
    expect(dropped.result).toMatchObject({ ok: false, error: { code: "TIMEOUT" } });
    expect([value(first), value(next)]).toEqual(["finished", "behind"]);
    // The one runtime ran both, and nobody had to kill it.
    expect(next.runtimes).toEqual(first.runtimes);
    expect(first.runtimes[0]!.alive).toBe(true);
  });

  it("takes the first of two held runs out when its caller cancels, and the second still runs once", async () => {
    const pool = await warmPool(1);
    const caller = new AbortController();
    const busy = execute(pool, spin(1500, "finished"));
    const cancelled = execute(pool, "'never ran'", 30_000, caller.signal);
    const behind = execute(pool, "'behind'");
    await new Promise((resolve) => setImmediate(resolve));
    caller.abort();
    const [first, second, third] = await Promise.all([busy, cancelled, behind]);
    expect(second.result).toMatchObject({ ok: false, error: { code: "CANCELLED" } });
    expect([value(first), value(third)]).toEqual(["finished", "behind"]);
    expect(third.runtimes).toEqual(first.runtimes);
    expect(first.runtimes[0]!.alive).toBe(true);
  });

  it("sends nothing ahead behind a run under way for longer than the bound: the request waits in the pool", async () => {
    const pool = await warmPool(1, 100);
    const busy = execute(pool, spin(1000, "finished"));
    // The run under way ages past the bound (the bound is the behaviour under test).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const waiting = execute(pool, "'after'");
    expect(pool.stats()).toMatchObject({ runtimes: 1, waiting: 1 });
    expect([value(await busy), value(await waiting)]).toEqual(["finished", "after"]);
  });

  it("runs a run sent ahead on a fresh runtime when the one it waited in is killed first", async () => {
    const pool = await warmPool(1);
    const [looping, waiting] = await Promise.all([execute(pool, "while (true) {}", 400), execute(pool, "'ran once'")]);
    expect(looping.result).toMatchObject({ ok: false, error: { code: "TIMEOUT" } });
    expect(value(waiting)).toBe("ran once");
    // It waited in the runtime that was killed, then ran on its replacement.
    expect(waiting.runtimes).toHaveLength(2);
    expect(waiting.runtimes[0]).toBe(looping.runtimes[0]);
    expect(waiting.runtimes[1]).not.toBe(looping.runtimes[0]);
  });

  it("ends a run still waiting at its deadline with TIMEOUT, and the run under way goes on", async () => {
    const pool = await warmPool(1);
    const order: string[] = [];
    const [busy, late] = await Promise.all([
      execute(pool, spin(1500, "finished"), 30_000).then((outcome) => (order.push("busy"), outcome)),
      execute(pool, "'never ran'", 300).then((outcome) => (order.push("late"), outcome)),
    ]);
    expect(late.result).toMatchObject({ ok: false, error: { code: "TIMEOUT", message: expect.stringMatching(/^No code runtime became free within the deadline/) } });
    // Answered at its own deadline, not when the run before it ended.
    expect(order).toEqual(["late", "busy"]);
    await expectRunBeforeUnharmed(pool, busy, late);
  });

  it("never starts a run held in the runtime whose deadline passed while the run before it ran", async () => {
    const pool = await warmPool(1);
    // The first run yields once (an async call), so the runtime has read and holds the second before it spins.
    const busy = execute(pool, `await call_tools([{ server: "s", tool: "t", args: {} }]);\n${spin(1500, "finished")}`);
    const late = await execute(pool, "'never ran'", 300);
    expect(late.result).toMatchObject({ ok: false, error: { code: "TIMEOUT" } });
    const first = await busy;
    expect(value(first)).toBe("finished");
    // The runtime dropped it itself (the host's request to drop it was still unread): nobody had to kill it.
    expect(value(await execute(pool, "'next'"))).toBe("next");
    expect(first.runtimes[0]!.alive).toBe(true);
  });

  it("takes a run waiting behind another out of its runtime when its caller cancels", async () => {
    const pool = await warmPool(1);
    const caller = new AbortController();
    const order: string[] = [];
    const busy = execute(pool, spin(1500, "finished")).then((outcome) => (order.push("busy"), outcome));
    const cancelled = execute(pool, "'never ran'", 30_000, caller.signal).then((outcome) => (order.push("cancelled"), outcome));
    // Sent by now: acquiring and sending take microtasks only.
    await new Promise((resolve) => setImmediate(resolve));
    caller.abort();
    const [first, second] = await Promise.all([busy, cancelled]);
    expect(second.result).toMatchObject({ ok: false, error: { code: "CANCELLED" } });
    expect(order).toEqual(["cancelled", "busy"]);
    await expectRunBeforeUnharmed(pool, first, second);
  });

  it("moves a run sent ahead to a runtime that goes idle, instead of leaving it behind a long run", async () => {
    const pool = await warmPool(2);
    const stopLong = new AbortController();
    let longEnded = false;
    // A run that awaits forever (its runtime stays responsive) until its caller cancels.
    const long = execute(pool, "await new Promise(() => {})", 30_000, stopLong.signal).then((outcome) => ((longEnded = true), outcome));
    const short = execute(pool, "'short'");
    const moved = execute(pool, "'moved'");
    const [done, quick] = await Promise.all([moved, short]);
    expect([value(done), value(quick)]).toEqual(["moved", "short"]);
    expect(longEnded).toBe(false);
    stopLong.abort();
    const ended = await long;
    expect(ended.result).toMatchObject({ ok: false, error: { code: "CANCELLED" } });
    // It was sent behind the long run first, then ran on the runtime the short run left.
    expect(done.runtimes).toEqual([ended.runtimes[0], quick.runtimes[0]]);
  });
});

describe("the runtime's own check of a held run's deadline", () => {
  it("drops every held run whose deadline passed while it waited, then starts the next one held", async () => {
    const runtime = spawnRuntime({ memoryLimitMb: 256, maxFrameBytes: 1 << 20 });
    try {
      await runtime.ready;
      const events: string[] = [];
      const listener = (name: string): RunListener => ({
        frame(frame: RuntimeFrame) {
          if (frame.t === "done") events.push(`${name} ${String(frame.ok ? frame.value : "failed")}`);
          if (frame.t === "call") runtime.reply(frame.c as number, JSON.stringify({ ok: true, value: null }));
        },
        started: () => void events.push(`${name} started`),
        dropped: () => void events.push(`${name} dropped`),
        exited: () => void events.push(`${name} exited`),
      });
      // Sent straight to the runtime, with no host deadline timer: nothing asks it to drop the late runs.
      const send = (code: string, deadline: number) => {
        const run = runtime.nextRun();
        const prepared = prepareSource(code);
        if (!prepared.ok) throw new Error(prepared.message);
        const { source, columnEdits } = prepared.prepared;
        const limits = { maxResultBytes: 1 << 20, maxLogBytes: 1 << 16, maxArgumentBytes: 1 << 20, maxArgumentNodes: 1000 };
        const catalog = run === 1 ? { catalog: { version: 1, tools: [] } } : {};
        return runtime.sendRun(run, { t: "run", x: run, source, columnEdits, lastLine: countLines(code), deadline, input: "{}", limits, ...catalog }, listener(String(run)));
      };
      const soon = Date.now() + 200;
      // The first run yields once (an async call answered here), so the runtime has read the held runs before it spins.
      expect(send(`await call_tools([{ server: "s", tool: "t", args: {} }]);\n${spin(800, "finished")}`, Date.now() + 30_000)).toBe("started");
      expect([send("'late'", soon), send("'late too'", soon), send("'behind'", Date.now() + 30_000)]).toEqual(["waiting", "waiting", "waiting"]);
      await vi.waitFor(() => expect(events).toContain("4 behind"), { timeout: 20_000, interval: 20 });
      expect(events).toEqual(["1 finished", "2 dropped", "3 dropped", "4 started", "4 behind"]);
      expect(runtime.alive).toBe(true);
      expect(await runtime.waitIdle(4, 10_000)).toBe(true);
    } finally {
      runtime.kill();
      await runtime.exited;
    }
  });
});
