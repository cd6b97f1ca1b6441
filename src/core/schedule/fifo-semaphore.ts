/** A first-in-first-out counting semaphore whose waiters can leave on abort. */

export interface FifoSemaphore {
  /** Take a permit now if one is free and nobody waits ahead. */
  tryAcquire(): boolean;
  /** Wait for a permit in arrival order; rejects with the signal's reason if it aborts first. */
  acquire(signal: AbortSignal): Promise<void>;
  release(): void;
  /** Permits in use plus waiters: zero means the semaphore can be forgotten. */
  readonly load: number;
  /** Reject every waiter with `reason`. */
  rejectAll(reason: unknown): void;
}

interface Waiter {
  resolve(): void;
  reject(reason: unknown): void;
}

export function createFifoSemaphore(capacity: number): FifoSemaphore {
  let inUse = 0;
  const waiters: Waiter[] = [];
  return {
    tryAcquire() {
      if (inUse >= capacity || waiters.length > 0) return false;
      inUse++;
      return true;
    },
    acquire(signal) {
      if (this.tryAcquire()) return Promise.resolve();
      if (signal.aborted) return Promise.reject(signal.reason);
      return new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          const index = waiters.indexOf(waiter);
          if (index >= 0) waiters.splice(index, 1);
          reject(signal.reason);
        };
        const waiter: Waiter = {
          resolve: () => {
            signal.removeEventListener("abort", onAbort);
            resolve();
          },
          reject: (reason) => {
            signal.removeEventListener("abort", onAbort);
            reject(reason);
          },
        };
        waiters.push(waiter);
        signal.addEventListener("abort", onAbort, { once: true });
      });
    },
    release() {
      // Hand the permit straight to the next waiter, so nobody can overtake it.
      const next = waiters.shift();
      if (next) next.resolve();
      else inUse--;
    },
    get load() {
      return inUse + waiters.length;
    },
    rejectAll(reason) {
      for (const waiter of waiters.splice(0)) waiter.reject(reason);
    },
  };
}
