/**
 * Keeps a project's shared files (tools.json, tools/, saved tools, the trust lock) the same on every
 * replica through a shared store: the store holds the truth, each replica's files are its copy,
 * which the executor's own watchers and reloads already serve. Each key is merged three ways
 * against the last content both sides agreed on: a side that changed wins over one that did not;
 * when both changed (or at start, with nothing agreed yet) the store wins, and a key only this
 * replica has is written to the store (the first replica seeds it). After the store was unreachable
 * the merge starts over the same way, so a Redis restarted without its data is seeded again (and a
 * deletion made meanwhile elsewhere may come back).
 */
import type { Logger } from "../plugin-contract.js";
import { createFileStore } from "./file-store.js";
import { checkStoreKey, type Store, type StoreKey } from "./store.js";

export interface ProjectFileSyncOptions {
  root: string;
  shared: Store;
  /** Exact keys (`tools.json`) and folder prefixes ending in `/` (`tools/`). */
  keys: StoreKey[];
  logger: Pick<Logger, "warn" | "info" | "debug">;
  /** After files changed here because of the store (another replica's write): the keys written. */
  onApplied(keys: StoreKey[]): void;
}

export interface ProjectFileSync {
  /** Merge every shared key now (after a local write: it is in the store when this resolves). Rejects with the store's `SERVICE_UNAVAILABLE`. */
  syncAll(): Promise<void>;
  close(): Promise<void>;
}

/** How soon a fresh merge that failed (the store not quite back) is tried again. */
const RESYNC_RETRY_MS = 1_000;

/** Larger files are not shared (a store is no artifact repository). */
export const MAX_SHARED_FILE_BYTES = 1024 * 1024;

/** Caches, dependencies and environments under tools/ stay local, as do names no store key can spell. */
const LOCAL_ONLY = /(^|\/)(__pycache__|node_modules|\.venv|venv|\.git)(\/|$)|\.(pyc|swp|swx)$|~$/;

function isShareable(key: StoreKey): boolean {
  if (LOCAL_ONLY.test(key)) return false;
  try {
    checkStoreKey(key);
    return true;
  } catch {
    return false;
  }
}

/**
 * Merge one key three ways against what both sides last agreed on; true when the local file changed.
 * Pushed when only this side changed, or at start when only this side has the key (seeding); else
 * the store's version is taken (when both changed, with a warning).
 */
async function mergeKey(local: Store, shared: Store, agreed: Map<StoreKey, string | undefined>, key: StoreKey, logger: Pick<Logger, "warn">): Promise<boolean> {
  const [mine, theirs] = await Promise.all([local.get(key), shared.get(key)]);
  if (mine === theirs) {
    agreed.set(key, mine);
    return false;
  }
  if (mine !== undefined && mine.length > MAX_SHARED_FILE_BYTES) {
    logger.warn(`Not shared through the store: ${key} is larger than ${MAX_SHARED_FILE_BYTES} bytes`);
    return false;
  }
  const known = agreed.has(key);
  const localChanged = known && mine !== agreed.get(key);
  const remoteChanged = known && theirs !== agreed.get(key);
  if ((localChanged && !remoteChanged) || (!known && theirs === undefined)) {
    if (mine === undefined) await shared.delete(key);
    else await shared.set(key, mine);
    agreed.set(key, mine);
    return false;
  }
  if (localChanged && remoteChanged) logger.warn(`${key} changed here and in the store ${shared.location} at once: the store's version wins`);
  if (theirs === undefined) await local.delete(key);
  else await local.set(key, theirs);
  agreed.set(key, theirs);
  return true;
}

/** The merges of one sync, one at a time in order. */
interface Merger {
  /** Merge `keys` after the merges queued before; `fresh`: forget what was agreed first. */
  merge(keys: () => Promise<StoreKey[]>, fresh?: boolean): Promise<void>;
  /** Merge every key: local, stored and agreed. */
  mergeAll(): Promise<void>;
  /** The keys of every local file and every stored value. */
  everyKey(): Promise<StoreKey[]>;
  /** After an outage: until a merge succeeds, every merge forgets what was agreed (it may be gone from the store). */
  startOver(): void;
  settled(): Promise<unknown>;
}

function createMerger(local: Store, options: ProjectFileSyncOptions): Merger {
  const { shared, logger } = options;
  /** The content both sides last agreed on, per key (undefined: absent on both). */
  const agreed = new Map<StoreKey, string | undefined>();
  let queue: Promise<unknown> = Promise.resolve();
  let afresh = false;
  const keysOf = async (store: Store) => (await Promise.all(options.keys.map((key) => (key.endsWith("/") ? store.list(key) : Promise.resolve([key]))))).flat().filter(isShareable);
  const merge = (keys: () => Promise<StoreKey[]>, fresh = false) => {
    const run = queue.then(async () => {
      if (fresh || afresh) agreed.clear();
      const applied: StoreKey[] = [];
      for (const key of new Set(await keys())) if (await mergeKey(local, shared, agreed, key, logger)) applied.push(key);
      afresh = false;
      if (applied.length > 0) options.onApplied(applied);
    });
    queue = run.catch(() => undefined);
    return run;
  };
  const everyKey = async () => [...(await keysOf(local)), ...(await keysOf(shared))];
  return {
    merge,
    mergeAll: () => merge(async () => [...(await everyKey()), ...agreed.keys()]),
    everyKey,
    startOver: () => void (afresh = true),
    settled: () => queue,
  };
}

/** Start syncing: one full merge first (a store that is down is logged; the local files serve meanwhile). */
export async function startProjectFileSync(options: ProjectFileSyncOptions): Promise<ProjectFileSync> {
  const { shared, logger } = options;
  // Unguarded: these writes copy what the store holds, or read what is being pushed to it.
  const local = createFileStore(options.root, { guarded: false });
  const merger = createMerger(local, options);
  let warned = false;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;
  const inBackground = (run: Promise<void>) =>
    void run.then(
      () => void (warned = false),
      (error: unknown) => {
        if (!warned) logger.warn(`Shared files not synced with ${shared.location}: ${(error as Error).message}; retrying when it is back`);
        warned = true;
      },
    );
  const isShared = (key: StoreKey) => isShareable(key) && options.keys.some((shareKey) => (shareKey.endsWith("/") ? key.startsWith(shareKey) : key === shareKey));
  // Back after an outage: start over as at start, so a Redis that lost its data is seeded again; tried
  // again until it succeeds (the store may answer its subscribers before its commands).
  const mergeAfresh = () => {
    clearTimeout(retry);
    merger.startOver();
    const run = merger.merge(merger.everyKey, true);
    run.catch(() => {
      if (!closed) retry = setTimeout(mergeAfresh, RESYNC_RETRY_MS).unref();
    });
    inBackground(run);
  };
  const undo = [
    shared.subscribe("", (change) => {
      if (change.kind === "resync") mergeAfresh();
      else if (isShared(change.key)) inBackground(merger.merge(async () => [change.key]));
    }),
    ...options.keys.map((key) =>
      local.subscribe(key, (change) => {
        if (change.origin === "external" && isShared(change.key)) inBackground(merger.merge(async () => [change.key]));
      }),
    ),
  ];
  inBackground(merger.mergeAll());
  await merger.settled();
  return {
    syncAll: merger.mergeAll,
    async close() {
      closed = true;
      clearTimeout(retry);
      for (const each of undo) each();
      await merger.settled();
      await local.close();
    },
  };
}
