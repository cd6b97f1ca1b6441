/**
 * A lock file beside an environment folder, so that concurrent first calls — in one executor, in
 * several, in `toolexec python sync` — wait for one build. Created exclusively (`wx`) with the
 * builder's pid and host: a lock whose builder died (same host, pid gone), or older than any
 * build may take, is stale and taken over, so a crashed builder never blocks the next.
 */
import { open, readFile, stat, unlink } from "node:fs/promises";
import os from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { isAlive } from "../files/atomic-write.js";

/** How often a waiter looks again. */
const POLL_MS = 200;

export interface HeldLock {
  release(): Promise<void>;
}

/** Whether the lock at `file` was left by a builder that is gone (or has run past `staleAfterMs`). */
async function isStale(file: string, staleAfterMs: number): Promise<boolean> {
  try {
    const [content, stats] = await Promise.all([readFile(file, "utf8"), stat(file)]);
    if (Date.now() - stats.mtimeMs > staleAfterMs) return true;
    const holder = JSON.parse(content) as { pid?: unknown; host?: unknown };
    return holder.host === os.hostname() && typeof holder.pid === "number" && !isAlive(holder.pid);
  } catch (error) {
    // Gone since (not stale: look again), or written only in part by a builder killed at once.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    const stats = await stat(file).catch(() => undefined);
    return stats !== undefined && Date.now() - stats.mtimeMs > 10_000;
  }
}

/** Take the lock once: held, or undefined when another holds it. */
async function tryLock(file: string): Promise<HeldLock | undefined> {
  try {
    const handle = await open(file, "wx");
    await handle.writeFile(JSON.stringify({ pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString() }));
    await handle.close();
    return { release: () => unlink(file).catch(() => {}) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return undefined;
    throw error;
  }
}

/**
 * Wait for the lock at `file`; `done()` is asked between tries, so a waiter whose environment
 * another process finished meanwhile stops waiting (resolves undefined) without taking the lock.
 *
 * @example
 * const lock = await acquireLock(`${folder}.lock`, { staleAfterMs, done: () => exists(folder) });
 */
export async function acquireLock(file: string, options: { staleAfterMs: number; done(): Promise<boolean>; onWait?(): void }): Promise<HeldLock | undefined> {
  let told = false;
  for (;;) {
    const held = await tryLock(file);
    if (held) return held;
    if (await options.done()) return undefined;
    if (await isStale(file, options.staleAfterMs)) {
      await unlink(file).catch(() => {});
      continue;
    }
    if (!told) options.onWait?.();
    told = true;
    await sleep(POLL_MS);
  }
}
