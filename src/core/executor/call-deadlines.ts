/**
 * The deadlines of the calls under way, on one Node timer instead of one per call. A call's own
 * `setTimeout` cost a Timeout, and — since each call's clear emptied its duration's timer list —
 * a new list in Node's timer queue for the next call: about a fifth of an in-process call's CPU.
 * Here a call is linked into a list sorted by deadline and unlinked when it ends; the timer is
 * armed for the earliest deadline and moved only when a new call must expire earlier. When the
 * earliest call ends first (nearly always) the timer stays armed: it fires, expires nobody, and
 * is armed again for the call now first. It holds the process open only while calls are listed.
 */
import { performance } from "node:perf_hooks";

/** Node's longest timer; a later deadline is reached by arming again when it fires. */
const LONGEST_TIMER_MS = 2_147_483_647;

/** A call with a deadline, as the list links it (running-call.ts). */
export interface Deadlined {
  /** When the call expires, in `performance.now()` milliseconds. */
  readonly deadline: number;
  /** Its neighbours in the list; both unset and `listed` false once it left. */
  earlierDeadline: Deadlined | undefined;
  laterDeadline: Deadlined | undefined;
  listed: boolean;
  /** Its deadline passed: it has already left the list. */
  expire(): void;
}

export class CallDeadlines {
  private first: Deadlined | undefined = undefined;
  private last: Deadlined | undefined = undefined;
  private timer: NodeJS.Timeout | undefined = undefined;
  /** When the timer fires; Infinity while none is armed. */
  private armedFor = Number.POSITIVE_INFINITY;
  private readonly fire = () => this.expireDue();

  add(call: Deadlined): void {
    // From the end: calls mostly come in deadline order (the same timeout, later starts).
    let before = this.last;
    while (before !== undefined && before.deadline > call.deadline) before = before.earlierDeadline;
    const after = before === undefined ? this.first : before.laterDeadline;
    call.earlierDeadline = before;
    call.laterDeadline = after;
    if (before === undefined) this.first = call;
    else before.laterDeadline = call;
    if (after === undefined) this.last = call;
    else after.earlierDeadline = call;
    call.listed = true;
    if (call.deadline < this.armedFor) this.arm(call.deadline);
    // The list was empty: the timer, armed for an earlier call, holds the process open again.
    else if (this.first === this.last) this.timer!.ref();
  }

  remove(call: Deadlined): void {
    if (!call.listed) return;
    const { earlierDeadline: before, laterDeadline: after } = call;
    if (before === undefined) this.first = after;
    else before.laterDeadline = after;
    if (after === undefined) this.last = before;
    else after.earlierDeadline = before;
    call.earlierDeadline = call.laterDeadline = undefined;
    call.listed = false;
    // Armed still, but it no longer keeps the process open for nobody.
    if (this.first === undefined) this.timer?.unref();
  }

  private arm(deadline: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.armedFor = deadline;
    this.timer = setTimeout(this.fire, Math.min(LONGEST_TIMER_MS, Math.max(1, Math.ceil(deadline - performance.now()))));
  }

  private expireDue(): void {
    this.timer = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
    const now = performance.now();
    try {
      while (this.first !== undefined && this.first.deadline <= now) {
        const call = this.first;
        this.remove(call);
        call.expire();
      }
    } finally {
      // Even past a throwing abort listener: the other calls keep their deadlines.
      if (this.first !== undefined) this.arm(this.first.deadline);
    }
  }
}
