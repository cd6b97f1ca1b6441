/**
 * The pool of warm runtimes. Runtimes start on demand up to `poolSize` and stay warm; a request
 * with none free waits in a bounded FIFO queue under its own deadline. A runtime goes back to
 * the idle list only after it reported its run idle (no microtask of it left running); a request
 * that would otherwise wait takes it sooner, and the runtime itself holds that run until its
 * report is out. With every runtime busy, a request is sent ahead to one whose run began moments
 * ago (up to {@link MAX_RUNS_AHEAD} per runtime, never a nested run, never past others already
 * waiting): the runtime starts each the moment the run before it ends, with no host round trip in
 * between. As its runs end, the queue refills it two at a time, which leave in one message (each
 * message costs both processes a wake-up); it then still holds one, so it does not wait for the host.
 * With one run ahead, a runtime that finished the run it held had nothing left half the time in a
 * burst (the host had not yet answered the end of the run before), and waited. A runtime that goes
 * idle while another holds runs sent ahead asks for one back, so it never waits behind a long run. One
 * that misses the handshake, or was killed, is replaced, and only once it has exited, so kills on
 * a busy machine never pile up respawns.
 */
import { ToolexecError } from "../../core/errors/toolexec-error.js";
import type { Logger } from "../../core/plugin-contract.js";
import { cancelCode, signalCancellation, type Cancellation } from "./call-cancellation.js";
import { QueuedRequest, type Waiter } from "./queued-request.js";
import { spawnRuntime, type RuntimeProcess, type RuntimeProcessOptions } from "./runtime-process.js";

/** How long a finished run's runtime may take to report idle before it is recycled. */
export const IDLE_HANDSHAKE_TIMEOUT_MS = 1_000;
/** A request is sent ahead only behind a run under way for less than this: an older one may run long. */
export const AHEAD_MAX_AGE_MS = 20;
/** Most runs one runtime holds behind the run under way. */
export const MAX_RUNS_AHEAD = 3;
/** A runtime with runs sent ahead is refilled once this many places behind its run are free. */
const REFILL_PLACES = 2;

export interface RuntimePoolOptions extends RuntimeProcessOptions {
  poolSize: number;
  maxQueue: number;
  logger: Logger;
  /**
   * Runtimes a nested run (one started by a call from another code run, which holds its own
   * runtime while it waits) may start beyond `poolSize`; they are stopped when given back. Default 0.
   */
  maxBorrowed?: number;
  /** Start a runtime right away so the first run finds one warm. Default true. */
  prewarm?: boolean;
  /** Told once, when the runtime started by `prewarm` is ready. */
  onPrewarmed?: () => void;
  /** How young a run under way must be for a request to be sent ahead behind it; -1: never. Default {@link AHEAD_MAX_AGE_MS}. */
  aheadMaxAgeMs?: number;
  /** Most runs sent ahead to one runtime. Default {@link MAX_RUNS_AHEAD}. */
  maxRunsAhead?: number;
  /** For tests: how runtimes are made. */
  spawn?: (options: RuntimeProcessOptions) => RuntimeProcess;
}

export interface RuntimePool {
  /**
   * A free runtime, waiting in the queue if none is. Rejects with `QUEUE_FULL`, `TIMEOUT` at
   * `deadline`, the signal's code when it aborts, `PLUGIN_FAILED` when no runtime can start, or
   * `EXECUTOR_CLOSED`. Code mode passes its call's cancellation (call-cancellation.ts): a request
   * that waits is told of a cancel without an AbortController.
   */
  acquire(deadline: number, signal: AbortSignal | Cancellation, nested?: boolean): Promise<RuntimeProcess>;
  /**
   * Give back a runtime whose run `run` finished. A request waiting, or the next one when no
   * runtime is idle, gets it at once: the runtime starts that run only after it reported `run`
   * idle. Missing that report within the handshake time kills it; the run sent ahead then ends
   * with `notStarted` (see run-on-runtime.ts) and may be run again on another runtime. A run that
   * never started (withdrawn, or dropped when asked back) frees its place behind the run under way.
   */
  release(runtime: RuntimeProcess, run: number): void;
  /** Runtimes alive or starting, and requests waiting. */
  stats(): { runtimes: number; idle: number; waiting: number };
  /** Kill every runtime and fail the waiting requests; resolves once all have exited. */
  close(): Promise<void>;
}

/** A runtime handed out: the runs it holds (the one under way, and those sent ahead), and when the one under way began. */
interface Busy {
  held: number;
  since: number;
}

export function createRuntimePool(options: RuntimePoolOptions): RuntimePool {
  const make = options.spawn ?? spawnRuntime;
  const all = new Set<RuntimeProcess>();
  const idle: RuntimeProcess[] = [];
  const waiters: Waiter[] = [];
  /** Runtimes given back and awaiting their idle report: about to be free, so not worth a new start. */
  const settling = new Set<RuntimeProcess>();
  const busy = new Map<RuntimeProcess, Busy>();
  let starting = 0;
  let closed = false;

  /** A free runtime, handed out for a run that starts now. */
  const take = (runtime: RuntimeProcess) => {
    busy.set(runtime, { held: 1, since: Date.now() });
    return runtime;
  };
  const aheadMaxAgeMs = options.aheadMaxAgeMs ?? AHEAD_MAX_AGE_MS;
  const young = (entry: Busy) => Date.now() - entry.since <= aheadMaxAgeMs;
  const maxHeld = 1 + (options.maxRunsAhead ?? MAX_RUNS_AHEAD);
  const refillAt = Math.min(REFILL_PLACES, maxHeld - 1);
  /** Runs sent ahead and not started: they count against `maxQueue` like those in the queue. */
  const sentAhead = () => {
    let count = 0;
    for (const entry of busy.values()) count += entry.held - 1;
    return count;
  };
  /** A busy runtime with room for a run sent ahead, behind a young run: the one holding fewest. */
  const aheadSlot = (): RuntimeProcess | undefined => {
    let best: [RuntimeProcess, Busy] | undefined;
    for (const [runtime, entry] of busy) {
      if (entry.held >= maxHeld || !runtime.alive || runtime.tainted || !young(entry)) continue;
      if (!best || entry.held < best[1].held) best = [runtime, entry];
    }
    if (!best) return undefined;
    best[1].held++;
    return best[0];
  };
  /** A place behind the run under way freed: once `refillAt` are, the first waiters take them (a nested one waits for a free runtime). */
  const offerAhead = (runtime: RuntimeProcess, entry: Busy) => {
    if (maxHeld - entry.held < refillAt || !young(entry) || runtime.tainted) return;
    while (entry.held < maxHeld && waiters.length > 0 && !waiters[0]!.nested) {
      entry.held++;
      waiters.shift()!.resolve(runtime);
    }
  };

  const handOver = (runtime: RuntimeProcess) => {
    if (closed || !runtime.alive) return;
    const waiter = waiters.shift();
    if (waiter) waiter.resolve(take(runtime));
    // A borrowed runtime goes away once nobody waits: the pool keeps `poolSize` warm.
    else if (all.size > options.poolSize) runtime.kill();
    else {
      idle.push(runtime);
      // A run sent ahead behind another runtime's run would wait longer there: ask for it back (it then comes here).
      for (const other of busy.keys()) if (other.hasWaiting && other.withdrawWaiting()) break;
    }
  };

  const start = (onReady?: () => void) => {
    const runtime = make({ memoryLimitMb: options.memoryLimitMb, maxFrameBytes: options.maxFrameBytes });
    all.add(runtime);
    starting++;
    let started = false;
    runtime.ready.then(
      () => {
        starting--;
        started = true;
        handOver(runtime);
        if (!closed) onReady?.();
      },
      (error: Error) => {
        starting--;
        runtime.kill();
        if (closed) return;
        options.logger.warn(`A code runtime failed to start: ${error.message}`);
        // Nothing else will serve the waiters: fail them now rather than at their deadlines.
        if (starting === 0 && [...all].every((other) => other === runtime || !other.alive)) {
          const failure = new ToolexecError("PLUGIN_FAILED", `No code runtime could start: ${error.message}`);
          for (const waiter of waiters.splice(0)) waiter.reject(failure);
        }
      },
    );
    void runtime.exited.then(() => {
      all.delete(runtime);
      settling.delete(runtime);
      busy.delete(runtime);
      const index = idle.indexOf(runtime);
      if (index >= 0) idle.splice(index, 1);
      // Replace a runtime that was killed or crashed, but never one that could not start.
      if (!closed && started && all.size < options.poolSize && (waiters.length > starting || idle.length === 0)) start();
    });
  };

  if (options.prewarm !== false) start(options.onPrewarmed);

  return {
    acquire(deadline, signalOrCancellation, nested = false) {
      if (closed) return Promise.reject(new ToolexecError("EXECUTOR_CLOSED", "The code runtimes are closed"));
      const cancellation = signalOrCancellation instanceof AbortSignal ? signalCancellation(signalOrCancellation) : signalOrCancellation;
      const cancelled = cancellation.reason();
      if (cancelled !== undefined) return Promise.reject(new ToolexecError(cancelCode(cancelled), "The code execution was cancelled before it started"));
      // Past its deadline (a run sent ahead that its runtime dropped for that): it gets no runtime.
      if (deadline <= Date.now()) return Promise.reject(new ToolexecError("TIMEOUT", `No code runtime became free within the deadline (pool size ${options.poolSize})`));
      while (idle.length > 0) {
        const runtime = idle.pop()!;
        if (runtime.alive) return Promise.resolve(take(runtime));
      }
      // No idle runtime: one whose run has ended takes the request ahead of its idle report.
      for (const runtime of settling) {
        settling.delete(runtime);
        if (runtime.alive) return Promise.resolve(take(runtime));
      }
      // A runtime starting or settling will serve one waiter each; start another only past them.
      const coming = starting + settling.size;
      // Every runtime busy: a young run's runtime takes this one ahead (a nested run's caller may be that run).
      const ahead = nested || waiters.length > 0 || sentAhead() >= options.maxQueue ? undefined : aheadSlot();
      if (all.size < options.poolSize && waiters.length >= coming) start();
      if (ahead) return Promise.resolve(ahead);
      else if (nested && all.size < options.poolSize + (options.maxBorrowed ?? 0)) start();
      // Requests waiting for a runtime that is starting or settling for them do not count against the queue.
      if (waiters.length + sentAhead() >= options.maxQueue + starting + settling.size) {
        return Promise.reject(
          new ToolexecError("QUEUE_FULL", `Too many code executions waiting (limit ${options.maxQueue}); try again later`, {
            details: { maxQueue: options.maxQueue, poolSize: options.poolSize },
          }),
        );
      }
      return new Promise<RuntimeProcess>((resolve, reject) => new QueuedRequest(waiters, nested, deadline, options.poolSize, resolve, reject).wait(cancellation));
    },
    release(runtime, run) {
      if (closed || !runtime.alive) return;
      const entry = busy.get(runtime);
      if (entry) entry.held--;
      if (runtime.tainted) return runtime.kill();
      if (entry && entry.held > 0) {
        // The run sent ahead goes on here (it starts now, or never started: then the run under way goes on).
        if (runtime.started(run)) {
          entry.since = Date.now();
          void runtime.waitIdle(run, IDLE_HANDSHAKE_TIMEOUT_MS).then((isIdle) => {
            if (!isIdle) runtime.kill();
            // The run sent ahead was withdrawn meanwhile, leaving it nothing to run.
            else if (settling.delete(runtime)) handOver(runtime);
          });
        }
        return offerAhead(runtime, entry);
      }
      busy.delete(runtime);
      // Never started, and nothing else here: free once the run before it reports idle (its own release waits for that).
      if (!runtime.started(run)) {
        if (runtime.isIdle) handOver(runtime);
        else settling.add(runtime);
        return;
      }
      // A request waiting gets the runtime now, ahead of its idle report (see RuntimePool.release).
      const ahead = waiters.length > 0;
      if (ahead) handOver(runtime);
      else settling.add(runtime);
      void runtime.waitIdle(run, IDLE_HANDSHAKE_TIMEOUT_MS).then((isIdle) => {
        // Taken ahead (here or by acquire): a miss kills it, and the run sent ahead, which the
        // runtime never started, runs again elsewhere; a late call is for that run's release.
        if (!settling.delete(runtime)) {
          if (!isIdle) runtime.kill();
        } else if (isIdle && !runtime.tainted) handOver(runtime);
        else runtime.kill();
      });
    },
    stats: () => ({ runtimes: all.size, idle: idle.length, waiting: waiters.length }),
    async close() {
      closed = true;
      const reason = new ToolexecError("EXECUTOR_CLOSED", "The executor closed before a code runtime became free");
      for (const waiter of waiters.splice(0)) waiter.reject(reason);
      idle.length = 0;
      const exits = [...all].map((runtime) => runtime.exited);
      for (const runtime of all) runtime.kill();
      await Promise.all(exits);
    },
  };
}
