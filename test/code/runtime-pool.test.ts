/**
 * The pool's rules with stand-in runtimes whose start, idle report and exit the test controls:
 * on-demand start up to the pool size, the bounded queue, deadlines and aborts while waiting,
 * the idle handshake (and runs handed over ahead of it), and replacements that start only after
 * a killed runtime has exited.
 */
import { describe, expect, it } from "vitest";
import { ToolexecError } from "../../src/index.js";
import { createRuntimePool, type RuntimePoolOptions } from "../../src/plugins/code/runtime-pool.js";
import type { RuntimeExit, RuntimeProcess } from "../../src/plugins/code/runtime-process.js";
import { silentLogger } from "./code-test-helpers.js";

interface FakeRuntime extends RuntimeProcess {
  start(): void;
  failStart(message: string): void;
  reportIdle(run: number): void;
  /** The idle handshake of `run` times out. */
  missIdle(run: number): void;
  exit(): void;
  markTainted(): void;
  killed: boolean;
  /** When set, a kill leaves the process "exiting" until `exit()`; otherwise it exits at once. */
  holdExit: boolean;
}

function fakeRuntime(id: number): FakeRuntime {
  let alive = true;
  let tainted = false;
  let runs = 0;
  let idleRun = 0;
  const idleWaiters = new Map<number, (idle: boolean) => void>();
  let markReady!: () => void;
  let failReady!: (error: Error) => void;
  let markExited!: (exit: RuntimeExit) => void;
  const ready = new Promise<void>((resolve, reject) => ((markReady = resolve), (failReady = reject)));
  ready.catch(() => undefined);
  const exited = new Promise<RuntimeExit>((resolve) => (markExited = resolve));
  const runtime: FakeRuntime = {
    id,
    pid: undefined,
    ready,
    exited,
    get alive() {
      return alive;
    },
    get tainted() {
      return tainted;
    },
    get isIdle() {
      return runs <= idleRun;
    },
    hasWaiting: false,
    baselineBytes: undefined,
    catalogVersion: -1,
    sendRun: () => (alive ? "started" : "unsent"),
    detach() {},
    withdraw() {},
    withdrawWaiting: () => false,
    started: () => true,
    killed: false,
    holdExit: false,
    nextRun: () => ++runs,
    waitIdle: (run) => (idleRun >= run ? Promise.resolve(true) : new Promise((resolve) => idleWaiters.set(run, resolve))),
    send: () => alive,
    answer() {},
    reply() {},
    residentBytes: () => undefined,
    kill() {
      runtime.killed = true;
      alive = false;
      for (const resolve of idleWaiters.values()) resolve(false);
      if (!runtime.holdExit) runtime.exit();
    },
    start: () => markReady(),
    failStart(message) {
      alive = false;
      failReady(new Error(message));
      markExited({ code: 1, signal: null, stderr: message });
    },
    reportIdle(run) {
      idleRun = run;
      idleWaiters.get(run)?.(true);
    },
    missIdle: (run) => idleWaiters.get(run)?.(false),
    exit() {
      alive = false;
      markExited({ code: null, signal: "SIGKILL", stderr: "" });
    },
    markTainted: () => (tainted = true),
  };
  return runtime;
}

function pool(options: Partial<RuntimePoolOptions> = {}) {
  const made: FakeRuntime[] = [];
  const instance = createRuntimePool({
    poolSize: 2,
    maxQueue: 1,
    memoryLimitMb: 64,
    maxFrameBytes: 1 << 20,
    logger: silentLogger,
    // These stand-ins run nothing: the pool's own rules, without runs sent ahead (code-sent-ahead.test.ts has those).
    aheadMaxAgeMs: -1,
    spawn: () => {
      const runtime = fakeRuntime(made.length + 1);
      made.push(runtime);
      return runtime;
    },
    ...options,
  });
  return { pool: instance, made };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const never = () => new AbortController().signal;
const later = (ms = 60_000) => Date.now() + ms;

describe("runtime pool", () => {
  it("sends up to three runs ahead to a busy runtime, then refills it two at a time from the queue", async () => {
    const { pool: runtimes, made } = pool({ poolSize: 1, maxQueue: 10, aheadMaxAgeMs: 60_000 });
    made[0]!.start();
    const runtime = await runtimes.acquire(later(), never());
    const ahead = await Promise.all([1, 2, 3].map(() => runtimes.acquire(later(), never())));
    expect(ahead).toEqual([runtime, runtime, runtime]);
    let answered = 0;
    const queued = [1, 2, 3].map(() => runtimes.acquire(later(), never()).then((given) => (answered++, given)));
    expect(runtimes.stats()).toMatchObject({ waiting: 3 });
    // One place behind the run under way is free: not yet worth a message.
    runtimes.release(runtime, runtime.nextRun());
    await tick();
    expect([runtimes.stats().waiting, answered]).toEqual([3, 0]);
    // Two are: both go, in the queue's order.
    runtimes.release(runtime, runtime.nextRun());
    await tick();
    expect([runtimes.stats().waiting, answered]).toEqual([1, 2]);
    expect(await Promise.race([queued[0], queued[1]])).toBe(runtime);
    await runtimes.close();
    await expect(queued[2]).rejects.toMatchObject({ code: "EXECUTOR_CLOSED" });
  });

  it("starts one runtime ahead, more on demand up to the pool size, then queues", async () => {
    const { pool: runtimes, made } = pool();
    expect(made).toHaveLength(1);
    const first = runtimes.acquire(later(), never());
    expect(made).toHaveLength(1);
    const second = runtimes.acquire(later(), never());
    expect(made).toHaveLength(2);
    made[1]!.start();
    made[0]!.start();
    expect(new Set([await first, await second])).toEqual(new Set(made));
    const third = runtimes.acquire(later(), never());
    expect(made).toHaveLength(2);
    expect(runtimes.stats()).toEqual({ runtimes: 2, idle: 0, waiting: 1 });
    await expect(runtimes.acquire(later(), never())).rejects.toMatchObject({ code: "QUEUE_FULL", message: "Too many code executions waiting (limit 1); try again later" });
    runtimes.release(made[0]!, made[0]!.nextRun());
    made[0]!.reportIdle(1);
    expect(await third).toBe(made[0]);
    await runtimes.close();
  });

  it("reuses a runtime only after it reports its run idle; recycles it on a miss or after a late call", async () => {
    const { pool: runtimes, made } = pool({ poolSize: 1 });
    made[0]!.start();
    const runtime = await runtimes.acquire(later(), never());
    const run = runtime.nextRun();
    runtimes.release(runtime, run);
    await tick();
    expect(runtimes.stats().idle).toBe(0);
    made[0]!.reportIdle(run);
    await tick();
    expect(runtimes.stats().idle).toBe(1);

    const again = await runtimes.acquire(later(), never());
    made[0]!.markTainted();
    runtimes.release(again, again.nextRun());
    expect(made[0]!.killed).toBe(true);
    await runtimes.close();
  });

  it("starts no runtime for a request when a given-back one is about to report idle", async () => {
    const { pool: runtimes, made } = pool({ poolSize: 3 });
    made[0]!.start();
    const runtime = await runtimes.acquire(later(), never());
    const run = runtime.nextRun();
    runtimes.release(runtime, run);
    const next = runtimes.acquire(later(), never());
    expect(made).toHaveLength(1);
    made[0]!.reportIdle(run);
    expect(await next).toBe(made[0]);
    await runtimes.close();
  });

  it("hands a given-back runtime to a request waiting before its idle report, and kills it when the report never comes", async () => {
    const { pool: runtimes, made } = pool({ poolSize: 1 });
    made[0]!.start();
    const runtime = await runtimes.acquire(later(), never());
    const waiting = runtimes.acquire(later(), never());
    const run = runtime.nextRun();
    runtimes.release(runtime, run);
    expect(await waiting).toBe(made[0]);
    expect(made[0]!.killed).toBe(false);
    made[0]!.missIdle(run);
    await tick();
    expect(made[0]!.killed).toBe(true);
    await runtimes.close();
  });

  it("gives a request an idle runtime first, then one given back whose idle report is due", async () => {
    const { pool: runtimes, made } = pool({ poolSize: 2 });
    made[0]!.start();
    const first = await runtimes.acquire(later(), never());
    const second = runtimes.acquire(later(), never());
    made[1]!.start();
    const other = await second;
    const run = first.nextRun();
    runtimes.release(first, run);
    const otherRun = other.nextRun();
    runtimes.release(other, otherRun);
    made[1]!.reportIdle(otherRun);
    await tick();
    expect(await runtimes.acquire(later(), never())).toBe(other);
    expect(await runtimes.acquire(later(), never())).toBe(first);
    expect(runtimes.stats()).toEqual({ runtimes: 2, idle: 0, waiting: 0 });
    made[0]!.reportIdle(run);
    await tick();
    expect(runtimes.stats().idle).toBe(0);
    await runtimes.close();
  });

  it("replaces a killed runtime only once it has exited", async () => {
    const { pool: runtimes, made } = pool({ poolSize: 1 });
    made[0]!.start();
    const runtime = await runtimes.acquire(later(), never());
    made[0]!.holdExit = true;
    runtime.kill();
    const waiting = runtimes.acquire(later(), never());
    await tick();
    expect(made).toHaveLength(1);
    made[0]!.exit();
    await tick();
    expect(made).toHaveLength(2);
    made[1]!.start();
    expect(await waiting).toBe(made[1]);
    await runtimes.close();
  });

  it("fails a wait at its deadline or when its signal aborts", async () => {
    const { pool: runtimes, made } = pool({ poolSize: 1, maxQueue: 5 });
    made[0]!.start();
    await runtimes.acquire(later(), never());
    await expect(runtimes.acquire(Date.now() + 30, never())).rejects.toMatchObject({ code: "TIMEOUT", message: expect.stringMatching(/^No code runtime became free within the deadline/) });
    const controller = new AbortController();
    const waiting = runtimes.acquire(later(), controller.signal);
    controller.abort(new ToolexecError("CANCELLED", "stop"));
    await expect(waiting).rejects.toMatchObject({ code: "CANCELLED" });
    expect(runtimes.stats().waiting).toBe(0);
    await runtimes.close();
  });

  it("fails the waiters at once when no runtime can start, and does not retry on its own", async () => {
    const { pool: runtimes, made } = pool({ poolSize: 1 });
    const waiting = runtimes.acquire(later(), never());
    made[0]!.failStart("node: bad option");
    await expect(waiting).rejects.toMatchObject({ code: "PLUGIN_FAILED", message: "No code runtime could start: node: bad option" });
    await tick();
    expect(made).toHaveLength(1);
    await runtimes.close();
  });

  it("close fails the waiters and kills every runtime", async () => {
    const { pool: runtimes, made } = pool({ poolSize: 1 });
    made[0]!.start();
    await runtimes.acquire(later(), never());
    const waiting = runtimes.acquire(later(), never());
    await runtimes.close();
    await expect(waiting).rejects.toMatchObject({ code: "EXECUTOR_CLOSED" });
    expect(made[0]!.killed).toBe(true);
    await expect(runtimes.acquire(later(), never())).rejects.toMatchObject({ code: "EXECUTOR_CLOSED" });
  });
});
