/**
 * The runs one runtime holds, from the host's side: the one under way and those sent ahead of
 * it. The runtime starts a run sent ahead right after the idle report of the run before it
 * (runtime/run-code.mjs), and frames on its socket keep the order it did things in, so an idle
 * report with a run waiting means that run starts now (or on arrival), and a `dropped` frame that
 * it never will: the runtime drops a run whose deadline passed, or one the host asked it to drop
 * when that request arrived first. A withdrawn run past such an idle report is killed only on proof
 * that it started (a frame of its own), or when no word of it comes within a bound.
 */
import type { RuntimeExit, RuntimeFrame } from "./runtime-process.js";

/** What a run on a runtime hears of it (run-on-runtime.ts attaches one per run it sends). */
export interface RunListener {
  /** A frame of this run (`idle`, `late` and `dropped` frames are handled here). */
  frame(frame: RuntimeFrame): void;
  /** The runtime started this run, which had been sent ahead of the run before it. */
  started(): void;
  /** The runtime dropped this run unstarted (asked back by the pool, or its deadline passed while it waited): it may run elsewhere. */
  dropped(): void;
  /** The process exited while the run was attached; `started` says whether it had begun. */
  exited(exit: RuntimeExit, started: boolean): void;
}

export interface RuntimeRuns {
  /** Attach a run being sent; true when it starts on arrival (nothing under way or unreported). */
  send(run: number, listener: RunListener): boolean;
  detach(run: number): void;
  /** The runtime reported run `run` idle. */
  idle(run: number): void;
  /** The runtime dropped run `run` unstarted. */
  dropped(run: number): void;
  frame(frame: RuntimeFrame): void;
  exited(exit: RuntimeExit): void;
  /** Mark the waiting run `run` withdrawn, its listener detached; true when a drop must be sent. */
  withdraw(run: number): boolean;
  /** Mark the last run waiting (if any: it would wait longest) to be dropped, its listener kept; the run, when a drop must be sent. */
  withdrawWaiting(): number | undefined;
  started(run: number): boolean;
  readonly hasWaiting: boolean;
  /** Every run started here reported idle, and none waits. */
  readonly isIdle: boolean;
}

/** How long a withdrawn run past its idle report may go without a word before its runtime is killed. */
export const WITHDRAWN_RUN_WORD_MS = 1_000;

/** `onWithdrawnStarted`: a withdrawn run started before the runtime read its drop; nothing of it may run. */
export function createRuntimeRuns(onWithdrawnStarted: () => void): RuntimeRuns {
  const listeners = new Map<number, RunListener>();
  /** Runs sent ahead, not started and not dropped, in the order the runtime will start them. */
  const waiting: number[] = [];
  /** Waiting runs the runtime was asked to drop. */
  const dropping = new Set<number>();
  /** Runs withdrawn or dropped before they started, kept until a later run starts (the pool asks on release). */
  const unstarted = new Set<number>();
  /** The run the runtime started last, and the last it reported idle. */
  let running = 0;
  let idleRun = 0;
  /** A withdrawn run past its idle report: started, unless the runtime drops it first. */
  let unconfirmed: { run: number; timer: NodeJS.Timeout } | undefined;
  const confirm = (started: boolean) => {
    if (!unconfirmed) return;
    clearTimeout(unconfirmed.timer);
    unconfirmed = undefined;
    if (started) onWithdrawnStarted();
  };

  return {
    send(run, listener) {
      listeners.set(run, listener);
      if (waiting.length === 0 && idleRun >= running) {
        running = run;
        return true;
      }
      waiting.push(run);
      return false;
    },
    detach: (run) => void listeners.delete(run),
    idle(run) {
      idleRun = Math.max(idleRun, run);
      if (unconfirmed?.run === run) confirm(true);
      const next = waiting.shift();
      if (next === undefined) return;
      running = next;
      for (const old of unstarted) if (old < next) unstarted.delete(old);
      const listener = listeners.get(next);
      if (dropping.delete(next) && listener === undefined) {
        unconfirmed = { run: next, timer: setTimeout(() => confirm(true), WITHDRAWN_RUN_WORD_MS) };
        unconfirmed.timer.unref();
      } else listener?.started();
    },
    dropped(run) {
      const index = waiting.indexOf(run);
      if (index >= 0) waiting.splice(index, 1);
      else if (run === running && idleRun < run) running = idleRun;
      else return;
      if (unconfirmed?.run === run) confirm(false);
      dropping.delete(run);
      unstarted.add(run);
      listeners.get(run)?.dropped();
    },
    frame(frame) {
      if (unconfirmed?.run === frame.x) return confirm(true);
      listeners.get(frame.x as number)?.frame(frame);
    },
    exited(exit) {
      confirm(false);
      for (const [run, listener] of [...listeners]) listener.exited(exit, !waiting.includes(run));
      listeners.clear();
    },
    withdraw(run) {
      listeners.delete(run);
      unstarted.add(run);
      if (!waiting.includes(run) || dropping.has(run)) return false;
      dropping.add(run);
      return true;
    },
    withdrawWaiting() {
      const run = waiting.findLast((candidate) => !dropping.has(candidate));
      if (run !== undefined) dropping.add(run);
      return run;
    },
    started: (run) => !unstarted.has(run),
    get hasWaiting() {
      return waiting.some((run) => !dropping.has(run));
    },
    get isIdle() {
      return waiting.length === 0 && idleRun >= running;
    },
  };
}
