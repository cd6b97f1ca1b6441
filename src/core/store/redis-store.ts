/**
 * The Redis driver: values in Redis strings under a prefix, changes announced over one pub/sub
 * channel, so every replica sharing the database hears every write. The client (node-redis, an
 * optional peer) is imported only when a redis:// store is opened. Bounded everywhere: a connect,
 * a command, a store that is down all end in `SERVICE_UNAVAILABLE` within their timeout; the
 * client reconnects in the background, and subscribers get a `resync` change once it is back.
 */
import { randomUUID } from "node:crypto";
import { ToolexecError } from "../errors/toolexec-error.js";
import type { Logger } from "../plugin-contract.js";
import { connectRedis } from "./redis-connection.js";
import { parseRedisUrl } from "./redis-url.js";
import { checkStoreKey, checkStoreValue, type Store } from "./store.js";

/** Longest wait for a connection or a command before `SERVICE_UNAVAILABLE`. */
export const DEFAULT_REDIS_TIMEOUT_MS = 2000;

export interface RedisStoreOptions {
  /** Connect and command timeout, ms. Default {@link DEFAULT_REDIS_TIMEOUT_MS}. */
  timeoutMs?: number;
  logger?: Pick<Logger, "warn" | "info">;
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
  const instanceId = randomUUID();
  const timeoutMs = options.timeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS;
  const connection = await connectRedis({ clientUrl, location, channel: `${prefix}changes`, instanceId, timeoutMs, ...(options.logger ? { logger: options.logger } : {}) });
  const { client, bounded, announce, listeners } = connection;

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
      checkStoreValue(key, value);
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
      if (connection.isClosed()) throw new ToolexecError("EXECUTOR_CLOSED", `The store ${location} is closed`);
      checkStoreKey(keyPrefix, true);
      return listeners.add(keyPrefix, listener);
    },
    async close() {
      if (!connection.isClosed()) connection.close();
    },
  };
}

