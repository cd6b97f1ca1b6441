/**
 * A bounded pool of warm workers sharing one interpreter, working folder and environment. A call
 * takes an idle worker (or starts one, up to `maxWorkers`, or waits its turn); a worker killed at a
 * deadline or that crashed is replaced only after it has exited (a respawn storm on a small machine
 * would double the time to kill). `retire()` makes every worker finish its call and go: the next
 * calls import the modules afresh.
 *
 * Failed starts and crashes in a row space out the next starts (exponential backoff from the
 * second one): a call that would start a worker before then fails at once with
 * {@link WorkerBackoffError} instead of spawning. A worker that answers a request resets the count.
 */
import { backoffDelay, type BackoffBounds } from "../../core/retry/backoff-delay.js";
import { lastLineOf, spawnPythonWorker, type PythonWorker, type WorkerSpawnOptions } from "./python-worker.js";

/** How long a new worker may take to say it is ready before it counts as failed. */
export const WORKER_START_TIMEOUT_MS = 15_000;
/** The wait before a start after the second failure in a row (failed start or crash), doubling up to the maximum. */
export const RESTART_BACKOFF: BackoffBounds = { minDelayMs: 500, maxDelayMs: 30_000 };

/** Why no worker was started: the pool is waiting after failures in a row. */
export class WorkerBackoffError extends Error {
  constructor(
    /** Epoch ms from which a start is tried again. */
    readonly nextAttemptAt: number,
    /** Failed starts and crashes in a row. */
    readonly failures: number,
    /** How the last one failed, with the last line of its stderr. */
    readonly lastFailure: string,
  ) {
    super(`${failures} worker failures in a row, the last: ${lastFailure}`);
  }
}

export interface WorkerPool {
  /** An idle worker for one request, or undefined when `signal` aborted first. Throws when a worker cannot start. */
  acquire(signal: AbortSignal): Promise<PythonWorker | undefined>;
  /** An idle warm worker at once, or undefined when none is idle (then `acquire` waits or starts one). */
  takeIdle(): PythonWorker | undefined;
  /** Give the worker back once its request settled (a dead or retired one is dropped). */
  release(worker: PythonWorker): void;
  /**
   * A worker for one concurrent call (a parallel `async def` tool): one already serving such calls
   * with fewer than `limit` under way, else one of its own as `acquire` gives it. Calls arriving
   * together fill one worker before they take another.
   */
  acquireShared(signal: AbortSignal, limit: number): Promise<PythonWorker | undefined>;
  /** The concurrent call on `worker` settled: the worker goes back to the pool once its last one has. */
  releaseShared(worker: PythonWorker): void;
  retire(): void;
  /** Pids of the workers alive now (tests check that none leak). */
  pids(): number[];
  close(): Promise<void>;
}

function describeExit(exit: { code: number | null; signal: NodeJS.Signals | null }): string {
  return `the worker ${exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`}`;
}

/** ": <the last line of the worker's stderr>", or nothing when it wrote none. */
function lastStderrLine(worker: PythonWorker): string {
  const line = lastLineOf(worker.stderrTail());
  return line === "" ? "" : `: ${line}`;
}

async function startWorker(options: WorkerSpawnOptions): Promise<PythonWorker> {
  const worker = spawnPythonWorker(options);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Python worker did not start within ${WORKER_START_TIMEOUT_MS} ms`)), WORKER_START_TIMEOUT_MS);
  });
  try {
    await Promise.race([worker.ready, timedOut]);
    return worker;
  } catch (error) {
    worker.kill();
    const tail = worker.stderrTail().trim();
    throw new Error(`${(error as Error).message}${tail ? `: ${tail.split("\n").slice(-3).join(" | ")}` : ""}`);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * @example
 * const pool = createWorkerPool({ interpreter, cwd, env }, 4);
 * const worker = await pool.acquire(signal);
 * try { await worker?.request(message); } finally { if (worker) pool.release(worker); }
 */
export function createWorkerPool(options: WorkerSpawnOptions, maxWorkers: number): WorkerPool {
  const all = new Set<PythonWorker>();
  const idle: PythonWorker[] = [];
  const waiting: Array<(worker: PythonWorker | Error | undefined) => void> = [];
  const generationOf = new Map<PythonWorker, number>();
  let generation = 0;
  let starting = 0;
  let closed = false;
  let failures = 0;
  let lastFailure = "";
  let nextStartAt = 0;

  const noteFailure = (how: string) => {
    failures++;
    lastFailure = how;
    if (failures >= 2) nextStartAt = Date.now() + backoffDelay(RESTART_BACKOFF, failures - 2);
  };

  const drop = (worker: PythonWorker) => {
    worker.kill();
    void worker.exited.then(() => {
      all.delete(worker);
      generationOf.delete(worker);
      // A waiting call gets a fresh worker only now that the old one is gone.
      if (!closed && waiting.length > 0) spawnFor(waiting.shift()!).catch(() => {});
    });
  };

  const spawnFor = async (handOver: (worker: PythonWorker | Error | undefined) => void) => {
    if (Date.now() < nextStartAt) {
      const error = new WorkerBackoffError(nextStartAt, failures, lastFailure);
      handOver(error);
      throw error;
    }
    starting++;
    try {
      const worker = await startWorker(options);
      all.add(worker);
      generationOf.set(worker, generation);
      void worker.exited.then((exit) => {
        if (!worker.killed && exit.code !== 0) noteFailure(`${describeExit(exit)}${lastStderrLine(worker)}`);
      });
      if (closed) {
        drop(worker);
        handOver(undefined);
      } else handOver(worker);
    } catch (error) {
      noteFailure((error as Error).message);
      handOver(error as Error);
      throw error;
    } finally {
      starting--;
    }
  };

  // Workers serving concurrent calls, with how many are under way on each.
  const shared = new Map<PythonWorker, number>();
  let joining: Promise<PythonWorker | undefined> | undefined;
  const withFreeSlot = (limit: number) => {
    for (const [worker, calls] of shared) if (worker.alive && generationOf.get(worker) === generation && calls < limit) return worker;
    return undefined;
  };

  const pool: WorkerPool = {
    async acquireShared(signal, limit) {
      for (;;) {
        const free = withFreeSlot(limit);
        if (free) {
          shared.set(free, shared.get(free)! + 1);
          return free;
        }
        if (!joining) break;
        await joining; // another call is getting a worker for concurrent calls: share it
        if (signal.aborted) return undefined;
      }
      joining = pool.acquire(signal).finally(() => (joining = undefined));
      const worker = await joining;
      if (worker) shared.set(worker, (shared.get(worker) ?? 0) + 1);
      return worker;
    },
    releaseShared(worker) {
      const calls = (shared.get(worker) ?? 1) - 1;
      if (calls > 0) {
        shared.set(worker, calls); // a dead one too: the last call out drops it
        return;
      }
      shared.delete(worker);
      pool.release(worker);
    },
    takeIdle() {
      if (closed) return undefined;
      while (idle.length > 0) {
        const worker = idle.pop()!;
        if (worker.alive && generationOf.get(worker) === generation) return worker;
        drop(worker);
      }
      return undefined;
    },
    async acquire(signal) {
      if (closed || signal.aborted) return undefined;
      const warm = pool.takeIdle();
      if (warm) return warm;
      if (all.size + starting < maxWorkers) {
        let started: PythonWorker | undefined;
        await spawnFor((worker) => (started = worker instanceof Error ? undefined : worker));
        return started;
      }
      return new Promise<PythonWorker | undefined>((resolve, reject) => {
        const handOver = (worker: PythonWorker | Error | undefined) => {
          signal.removeEventListener("abort", onAbort);
          if (worker instanceof Error) reject(worker);
          else resolve(worker);
        };
        const onAbort = () => {
          const index = waiting.indexOf(handOver);
          if (index >= 0) waiting.splice(index, 1);
          resolve(undefined);
        };
        signal.addEventListener("abort", onAbort, { once: true });
        waiting.push(handOver);
      });
    },
    release(worker) {
      if (worker.alive && worker.answered) {
        failures = 0;
        nextStartAt = 0;
      }
      if (closed || !worker.alive || generationOf.get(worker) !== generation) {
        drop(worker);
        return;
      }
      const next = waiting.shift();
      if (next) next(worker);
      else idle.push(worker);
    },
    retire() {
      generation++;
      for (const worker of idle.splice(0)) drop(worker);
    },
    pids: () => [...all].filter((worker) => worker.alive).map((worker) => worker.pid),
    async close() {
      closed = true;
      for (const handOver of waiting.splice(0)) handOver(undefined);
      idle.length = 0;
      const workers = [...all];
      for (const worker of workers) worker.kill();
      await Promise.all(workers.map((worker) => worker.exited));
    },
  };
  return pool;
}
