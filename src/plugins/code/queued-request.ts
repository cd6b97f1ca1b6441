/**
 * A request waiting for a code runtime in the pool's queue (runtime-pool.ts).
 */
import { performance } from "node:perf_hooks";
import { ToolexecError } from "../../core/errors/toolexec-error.js";
import { CallDeadlines, type Deadlined } from "../../core/executor/call-deadlines.js";
import { cancelCode, type Cancellation } from "./call-cancellation.js";
import type { RuntimeProcess } from "./runtime-process.js";

/** What the pool's queue holds and answers. */
export interface Waiter {
  resolve(runtime: RuntimeProcess): void;
  reject(error: ToolexecError): void;
  nested: boolean;
}

/**
 * A request waiting in the queue: on the pools' one deadline list (a burst queues thousands, and a
 * timer each cost a Timeout and Node's timer list work per request) and watching its cancellation.
 * The pool takes it out of the queue before it answers it; one that gives up leaves the queue itself
 * (a search of the queue, which holds thousands in a burst, only then).
 */
export class QueuedRequest implements Waiter, Deadlined {
  readonly deadline: number;
  earlierDeadline: Deadlined | undefined = undefined;
  laterDeadline: Deadlined | undefined = undefined;
  listed = false;
  private readonly waitedSince = Date.now();
  private stopWatching: (() => void) | undefined;

  constructor(
    private readonly queue: Waiter[],
    readonly nested: boolean,
    deadline: number,
    private readonly poolSize: number,
    private readonly answerWith: (runtime: RuntimeProcess) => void,
    private readonly failWith: (error: ToolexecError) => void,
  ) {
    this.deadline = performance.now() + (deadline - this.waitedSince);
  }

  wait(cancellation: Cancellation): void {
    waitingDeadlines.add(this);
    // A nested run goes first: its caller holds a runtime until it has one.
    if (this.nested) this.queue.unshift(this);
    else this.queue.push(this);
    this.stopWatching = cancellation.watch((reason) => this.leave(new ToolexecError(cancelCode(reason), "The code execution was cancelled while it waited for a runtime")));
  }

  resolve(runtime: RuntimeProcess): void {
    this.settle();
    this.answerWith(runtime);
  }

  reject(error: ToolexecError): void {
    this.settle();
    this.failWith(error);
  }

  expire(): void {
    this.leave(new ToolexecError("TIMEOUT", `No code runtime became free within the deadline (waited ${Date.now() - this.waitedSince} ms; pool size ${this.poolSize})`));
  }

  private leave(error: ToolexecError): void {
    const index = this.queue.indexOf(this);
    if (index >= 0) this.queue.splice(index, 1);
    this.reject(error);
  }

  private settle(): void {
    waitingDeadlines.remove(this);
    this.stopWatching?.();
  }
}

/** The deadlines of every pool's queued requests, on one timer. */
const waitingDeadlines = new CallDeadlines();
