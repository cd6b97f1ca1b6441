/**
 * The Redis driver: values in Redis strings under a prefix, changes announced over one pub/sub
 * channel, so every replica sharing the database hears every write. The client (node-redis, an
 * optional peer) is imported only when a redis:// store is opened. Bounded everywhere: a connect,
 * a command, a store that is down all end in `SERVICE_UNAVAILABLE` within their timeout; the
 * client reconnects in the background, and subscribers get a `resync` change once it is back.
 */
import { randomUUID } from "node:crypto";
import { ToolexecError } from "../errors/toolexec-error.js";
import { checkStoreKey, storeUnavailable, type Store, type StoreChange, type StoreKey } from "./store.js";
import { createStoreListeners } from "./store-listeners.js";
import { parseRedisUrl } from "./redis-url.js";
import type { Logger } from "../plugin-contract.js";

/** Longest wait for a connection or a command before `SERVICE_UNAVAILABLE`. */
export const DEFAULT_REDIS_TIMEOUT_MS = 2000;
/** Longest pause between reconnection attempts. */
const MAX_RECONNECT_DELAY_MS = 1000;

export interface RedisStoreOptions {
  /** Connect and command timeout, ms. Default {@link DEFAULT_REDIS_TIMEOUT_MS}. */
  timeoutMs?: number;
  logger?: Pick<Logger, "warn" | "info">;
}

/** The part of a node-redis client this driver uses (typed here, so the package stays optional). */
interface RedisClient {
  isReady: boolean;
  connect(): Promise<unknown>;
  destroy(): void;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  duplicate(): RedisClient;
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<unknown>;
  del(key: string): Promise<number>;
  publish(channel: string, message: string): Promise<number>;
  scanIterator(options: { MATCH: string; COUNT: number }): AsyncIterable<string[]>;
  multi(): { incrBy(key: string, amount: number): unknown; pExpire(key: string, ms: number, mode: "NX"): unknown; exec(): Promise<unknown[]> };
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
}

/** Glob characters of a SCAN pattern, escaped so a prefix matches itself only. */
const escapeGlob = (text: string) => text.replace(/[*?[\]\\]/g, "\\$&");

/**
 * Open a Redis store at `url` (`redis://[user:password@]host:port/db[?prefix=name]`, or `rediss://`).
 * Resolves once connected, or after the timeout with the store reconnecting in the background (its
 * operations reject with `SERVICE_UNAVAILABLE` until then).
 *
 * @example
 * const store = await createRedisStore("redis://127.0.0.1:6379/0");
 * await store.set(".toolexec/notes.json", "{}");
 */
export async function createRedisStore(url: string, options: RedisStoreOptions = {}): Promise<Store> {
  const { clientUrl, prefix, location } = parseRedisUrl(url);
  const timeoutMs = options.timeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS;
  const redis = await importRedis();
  const socket = { connectTimeout: timeoutMs, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, MAX_RECONNECT_DELAY_MS) };
  const client = redis.createClient({ url: clientUrl, socket, disableOfflineQueue: true }) as unknown as RedisClient;
  const subscriber = client.duplicate();
  const instanceId = randomUUID();
  const channel = `${prefix}changes`;
  const listeners = createStoreListeners();
  let closed = false;
  let lastError = "";
  for (const [name, each] of [["commands", client], ["changes", subscriber]] as const) {
    each.on("error", (error) => {
      const message = (error as Error)?.message ?? String(error);
      if (message !== lastError) options.logger?.warn(`Store ${location} (${name}): ${message}; reconnecting`);
      lastError = message;
    });
  }
  // After a reconnect, a subscriber may have missed changes: tell every listener to re-read.
  let subscribedOnce = false;
  subscriber.on("ready", () => {
    if (subscribedOnce) listeners.emit({ key: "", kind: "resync", origin: "store" });
    subscribedOnce = true;
    lastError = "";
  });

  const bounded = async <Value>(operation: string, run: () => Promise<Value>): Promise<Value> => {
    if (closed) throw new ToolexecError("EXECUTOR_CLOSED", `The store ${location} is closed`);
    if (!client.isReady) throw storeUnavailable(location, operation, lastError ? new Error(lastError) : undefined);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(storeUnavailable(location, `${operation}: no answer in ${timeoutMs} ms`)), timeoutMs)));
    try {
      return await Promise.race([run(), timeout]);
    } catch (error) {
      throw error instanceof ToolexecError ? error : storeUnavailable(location, operation, error);
    } finally {
      clearTimeout(timer);
    }
  };
  const announce = (change: Omit<StoreChange, "origin">) => client.publish(channel, JSON.stringify({ ...change, origin: instanceId }));

  const connect = (each: RedisClient) => each.connect().catch(() => undefined);
  await Promise.race([Promise.all([connect(client), connect(subscriber)]), new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
  void subscriber
    .subscribe(channel, (message) => {
      const change = parseChange(message);
      if (change) listeners.emit(change);
    })
    .catch((error: unknown) => options.logger?.warn(`Store ${location}: cannot subscribe to changes: ${(error as Error).message}`));

  return {
    driver: "redis",
    location,
    instanceId,
    async get(key) {
      checkStoreKey(key);
      return bounded(`get ${key}`, async () => (await client.get(prefix + key)) ?? undefined);
    },
    async set(key, value) {
      checkStoreKey(key);
      if (typeof value !== "string") throw new ToolexecError("INVALID_INPUT", `A store value must be a string, got ${typeof value} at ${key}`);
      return bounded(`set ${key}`, async () => {
        await client.set(prefix + key, value);
        await announce({ key, kind: "set" });
      });
    },
    async delete(key) {
      checkStoreKey(key);
      return bounded(`delete ${key}`, async () => {
        const removed = (await client.del(prefix + key)) > 0;
        if (removed) await announce({ key, kind: "delete" });
        return removed;
      });
    },
    async list(keyPrefix) {
      checkStoreKey(keyPrefix, true);
      return bounded(`list ${keyPrefix}`, async () => {
        const keys = new Set<string>();
        for await (const batch of client.scanIterator({ MATCH: `${escapeGlob(prefix + keyPrefix)}*`, COUNT: 500 })) for (const key of batch) keys.add(key.slice(prefix.length));
        keys.delete("changes");
        return [...keys].sort();
      });
    },
    async increment(key, amount = 1, incrementOptions = {}) {
      checkStoreKey(key);
      return bounded(`increment ${key}`, async () => {
        const transaction = client.multi();
        transaction.incrBy(prefix + key, amount);
        if (incrementOptions.ttlMs !== undefined) transaction.pExpire(prefix + key, incrementOptions.ttlMs, "NX");
        const [count] = await transaction.exec();
        return Number(count);
      });
    },
    subscribe(keyPrefix, listener) {
      if (closed) throw new ToolexecError("EXECUTOR_CLOSED", `The store ${location} is closed`);
      checkStoreKey(keyPrefix, true);
      return listeners.add(keyPrefix, listener);
    },
    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      client.destroy();
      subscriber.destroy();
    },
  };
}

function parseChange(message: string): StoreChange | undefined {
  try {
    const change = JSON.parse(message) as StoreChange;
    return typeof change.key === "string" && (change.kind === "set" || change.kind === "delete") && typeof change.origin === "string" ? change : undefined;
  } catch {
    return undefined;
  }
}

/** node-redis, an optional peer: a clear error when it is not installed. */
async function importRedis(): Promise<{ createClient(options: object): unknown }> {
  try {
    return (await import("redis")) as unknown as { createClient(options: object): unknown };
  } catch (error) {
    throw new ToolexecError("CONFIG_INVALID", "A redis:// store needs the `redis` package (node-redis 6): run `npm install redis`", { cause: error });
  }
}
