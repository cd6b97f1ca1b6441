/**
 * The two node-redis connections of a Redis store (commands; change subscription) and their bounds:
 * every command fails with `SERVICE_UNAVAILABLE` at once while disconnected and after `timeoutMs`
 * otherwise; the clients reconnect in the background, and listeners get a `resync` once back.
 */
import { ToolexecError } from "../errors/toolexec-error.js";
import type { Logger } from "../plugin-contract.js";
import { storeUnavailable, type StoreChange } from "./store.js";
import { createStoreListeners, type StoreListeners } from "./store-listeners.js";

/** Longest pause between reconnection attempts. */
const MAX_RECONNECT_DELAY_MS = 1000;

/** The part of a node-redis client the driver uses (typed here, so the package stays optional). */
export interface RedisClient {
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

export interface RedisConnection {
  client: RedisClient;
  listeners: StoreListeners;
  /** Run one operation within the bounds. */
  bounded<Value>(operation: string, run: () => Promise<Value>): Promise<Value>;
  /** Publish a change made through this connection. */
  announce(change: Omit<StoreChange, "origin">): Promise<unknown>;
  isClosed(): boolean;
  close(): void;
}

export interface RedisConnectionOptions {
  clientUrl: string;
  location: string;
  channel: string;
  instanceId: string;
  timeoutMs: number;
  logger?: Pick<Logger, "warn" | "info">;
}

/** Connect (waiting `timeoutMs` at most: past it the clients go on trying) and subscribe to the changes. */
export async function connectRedis(options: RedisConnectionOptions): Promise<RedisConnection> {
  const { location, timeoutMs } = options;
  const redis = await importRedis();
  const socket = { connectTimeout: timeoutMs, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, MAX_RECONNECT_DELAY_MS) };
  const client = redis.createClient({ url: options.clientUrl, socket, disableOfflineQueue: true }) as unknown as RedisClient;
  const subscriber = client.duplicate();
  const listeners = createStoreListeners();
  const state = { closed: false, lastError: "" };
  watchHealth(client, subscriber, listeners, state, options);

  const bounded = async <Value>(operation: string, run: () => Promise<Value>): Promise<Value> => {
    if (state.closed) throw new ToolexecError("EXECUTOR_CLOSED", `The store ${location} is closed`);
    if (!client.isReady) throw storeUnavailable(location, operation, state.lastError ? new Error(state.lastError) : undefined);
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

  const connect = (each: RedisClient) => each.connect().catch(() => undefined);
  await Promise.race([Promise.all([connect(client), connect(subscriber)]), new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
  void subscriber
    .subscribe(options.channel, (message) => {
      const change = parseChange(message);
      if (change) listeners.emit(change);
    })
    .catch((error: unknown) => options.logger?.warn(`Store ${location}: cannot subscribe to changes: ${(error as Error).message}`));
  return {
    client,
    listeners,
    bounded,
    announce: (change) => client.publish(options.channel, JSON.stringify({ ...change, origin: options.instanceId })),
    isClosed: () => state.closed,
    close() {
      state.closed = true;
      listeners.clear();
      client.destroy();
      subscriber.destroy();
    },
  };
}

/** Log each new connection error once; after a reconnect, tell every listener it may have missed changes. */
function watchHealth(client: RedisClient, subscriber: RedisClient, listeners: StoreListeners, state: { lastError: string }, options: RedisConnectionOptions): void {
  for (const [name, each] of [["commands", client], ["changes", subscriber]] as const) {
    each.on("error", (error) => {
      const message = (error as Error)?.message ?? String(error);
      if (message !== state.lastError) options.logger?.warn(`Store ${options.location} (${name}): ${message}; reconnecting`);
      state.lastError = message;
    });
  }
  let subscribedOnce = false;
  subscriber.on("ready", () => {
    if (subscribedOnce) listeners.emit({ key: "", kind: "resync", origin: "store" });
    subscribedOnce = true;
    state.lastError = "";
  });
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
