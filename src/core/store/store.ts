/**
 * The storage interface for what must outlive a process or be shared by replicas (DESIGN §17):
 * registry writes, saved tools, trust decisions, OAuth tokens, API key hashes, rate-limit counters.
 * A store is a plain object from a driver's factory: files (the default; keys are paths under the
 * project, today's layout) or Redis (`redis://host:port/db`, shared by replicas).
 */
import { ToolexecError } from "../errors/toolexec-error.js";

/**
 * A key: `/`-separated segments of letters, digits, `.`, `_`, `-` (never `.` or `..` alone), like
 * `tools.json` or `.toolexec/saved-tools/report.js`. The files driver maps it to the path under its
 * folder, so a key names today's file.
 */
export type StoreKey = string;

/**
 * One change, as subscribers see it: after the write, from this process or another replica.
 * `resync` (key `""`, every subscriber): the store was unreachable for a while and changes may have
 * been missed; re-read what you keep.
 */
export interface StoreChange {
  key: StoreKey;
  kind: "set" | "delete" | "resync";
  /** The {@link Store.instanceId} of the process that made it. */
  origin: string;
}

/** Options of {@link Store.increment}. */
export interface IncrementOptions {
  /** The counter starts over this many milliseconds after its first increment (a rate-limit window). */
  ttlMs?: number;
}

/**
 * Get, set, delete and list string values by key; every write is atomic per key (a reader sees the
 * old value or the new, never a part) and goes out as a {@link StoreChange} to every subscriber of
 * every process sharing the store. A store that cannot be reached rejects with a `ToolexecError`
 * of code `SERVICE_UNAVAILABLE` within its timeout: never a hang.
 *
 * @example
 * const store = createFileStore("/project");
 * await store.set("notes/today.json", JSON.stringify({ done: true }));
 * const undo = store.subscribe("notes/", (change) => console.log(change.kind, change.key));
 * await store.get("notes/today.json"); // '{"done":true}'
 * undo();
 * await store.close();
 */
export interface Store {
  /** `files` or `redis`. */
  readonly driver: string;
  /** Where it is, for logs and errors, without credentials (`files:/project`, `redis://host:6379/0`). */
  readonly location: string;
  /** This process's id in {@link StoreChange.origin}: a subscriber can skip its own writes. */
  readonly instanceId: string;
  /** The value, or undefined when the key has none. */
  get(key: StoreKey): Promise<string | undefined>;
  /** Write `value` atomically, then announce it. */
  set(key: StoreKey, value: string): Promise<void>;
  /** Remove the key; false when it had no value. Announced when it had one. */
  delete(key: StoreKey): Promise<boolean>;
  /** Every key starting with `prefix` (`""`: all), sorted. */
  list(prefix: StoreKey): Promise<StoreKey[]>;
  /**
   * Add `amount` (default 1) to a counter atomically and return the new count; not announced, and
   * apart from `get`/`list` (the files driver keeps counters in memory; Redis shares them).
   */
  increment(key: StoreKey, amount?: number, options?: IncrementOptions): Promise<number>;
  /** Call `listener` for each change of a key starting with `prefix`; returns the undo function. */
  subscribe(prefix: StoreKey, listener: (change: StoreChange) => void): () => void;
  /** Release connections and watchers; later calls reject with `EXECUTOR_CLOSED`. */
  close(): Promise<void>;
}

const KEY_SEGMENT = /^[A-Za-z0-9._-]+$/;

/**
 * Throw a clear `INVALID_INPUT` unless `key` is a valid {@link StoreKey}; `allowPrefix`: also `""` or a trailing `/`.
 *
 * @example
 * checkStoreKey("tools.json"); // ok
 * checkStoreKey("../etc/passwd"); // throws INVALID_INPUT
 */
export function checkStoreKey(key: unknown, allowPrefix = false): asserts key is StoreKey {
  if (typeof key !== "string") throw storeKeyError(key, `expected a string, got ${key === null ? "null" : typeof key}`);
  if (allowPrefix && key === "") return;
  const segments = (allowPrefix && key.endsWith("/") ? key.slice(0, -1) : key).split("/");
  for (const segment of segments) {
    if (segment === "" || segment === "." || segment === "..") throw storeKeyError(key, "a segment is empty, `.` or `..`");
    if (!KEY_SEGMENT.test(segment)) throw storeKeyError(key, "use only letters, digits, `.`, `_`, `-` between `/`");
  }
}

/** Throw a clear `INVALID_INPUT` unless `value` is a string (the one value type of a store). */
export function checkStoreValue(key: StoreKey, value: unknown): asserts value is string {
  if (typeof value !== "string") throw new ToolexecError("INVALID_INPUT", `A store value must be a string, got ${value === null ? "null" : typeof value} at ${key}`);
}

function storeKeyError(key: unknown, why: string): ToolexecError {
  return new ToolexecError("INVALID_INPUT", `Invalid store key ${JSON.stringify(key)}: ${why}`);
}

/**
 * The error of an operation the store could not serve (down, unreachable, timed out).
 *
 * @example
 * throw storeUnavailable(store.location, "get tools.json", cause);
 */
export function storeUnavailable(location: string, operation: string, cause?: unknown): ToolexecError {
  const why = cause instanceof Error ? `: ${cause.message}` : "";
  return new ToolexecError("SERVICE_UNAVAILABLE", `The store ${location} is unavailable (${operation})${why}; local tools keep working, try again once it is back`, { cause, details: { store: location, operation } });
}

/**
 * Read a JSON value; undefined when the key has none. A damaged value throws `CONFIG_INVALID`.
 *
 * @example
 * const limits = await readStoreJson<{ perMinute: number }>(store, "identity/limits.json");
 */
export async function readStoreJson<Value>(store: Store, key: StoreKey): Promise<Value | undefined> {
  const text = await store.get(key);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as Value;
  } catch (error) {
    throw new ToolexecError("CONFIG_INVALID", `The store's value at ${key} (${store.location}) is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * Write a JSON value (two-space indent, final newline: diff-friendly in the files driver).
 *
 * @example
 * await writeStoreJson(store, "identity/limits.json", { perMinute: 60 });
 */
export function writeStoreJson(store: Store, key: StoreKey, value: unknown): Promise<void> {
  return store.set(key, `${JSON.stringify(value, null, 2)}\n`);
}
