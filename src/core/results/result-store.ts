/**
 * The store behind `read_result`: whole values of results a model got only the head of, in memory,
 * per executor, under a byte cap (least recently used evicted first) and a time to live (refreshed
 * by each read). Handles are `r_` and 128 random bits, and each entry is scoped to the caller that
 * made the call (a served session), so one client cannot read another's result.
 */
import { randomBytes } from "node:crypto";
import { DEFAULT_RESULT_STORE_MAX_BYTES, DEFAULT_RESULT_TTL_MS } from "./result-budget.js";

/** One stored value. */
export interface StoredResult {
  handle: string;
  /** The tool whose call answered it. */
  tool: string;
  value: unknown;
  /** The value as paged text: the string itself, or its JSON. */
  text: string;
  /** The budget it was cut to: `read_result`'s page size when the read names no limit. */
  maxChars: number;
  /** Who may read it: the caller's session, or undefined for the host's own calls. */
  scope: string | undefined;
  bytes: number;
  expiresAt: number;
}

export interface ResultStore {
  /** A fresh handle, unguessable. */
  createHandle(): string;
  /** Keep a value under `handle`; false when it alone is larger than the store's cap (nothing is kept). */
  put(entry: Omit<StoredResult, "bytes" | "expiresAt">): boolean;
  /**
   * The entry under `handle` if `scope` may read it: the host (`undefined`) reads every entry, a
   * caller only its own. Refreshes its place and its time to live.
   */
  get(handle: string, scope: string | undefined): StoredResult | undefined;
  /** Bytes held now (approximate: two per character of each value's text, twice that for structured values). */
  readonly bytes: number;
  clear(): void;
}

/** Approximate memory of an entry: UTF-16 text, plus the parsed value beside a structured one's JSON. */
function sizeOf(entry: { value: unknown; text: string }): number {
  return entry.text.length * (typeof entry.value === "string" ? 2 : 4);
}

/**
 * @example
 * const store = createResultStore({ maxBytes: 16 * 1024 * 1024, ttlMs: 10 * 60_000 });
 */
export function createResultStore(options: { maxBytes?: number; ttlMs?: number; now?: () => number } = {}): ResultStore {
  const maxBytes = options.maxBytes ?? DEFAULT_RESULT_STORE_MAX_BYTES;
  const ttlMs = options.ttlMs ?? DEFAULT_RESULT_TTL_MS;
  const now = options.now ?? Date.now;
  // A Map keeps insertion order: re-inserting on each read makes its first key the least recently used.
  const entries = new Map<string, StoredResult>();
  let bytes = 0;

  const remove = (handle: string) => {
    const entry = entries.get(handle);
    if (!entry) return;
    entries.delete(handle);
    bytes -= entry.bytes;
  };
  const dropExpired = (at: number) => {
    for (const [handle, entry] of entries) if (entry.expiresAt <= at) remove(handle);
  };

  return {
    createHandle: () => `r_${randomBytes(16).toString("base64url")}`,
    put(entry) {
      const size = sizeOf(entry);
      if (size > maxBytes) return false;
      const at = now();
      dropExpired(at);
      remove(entry.handle);
      for (const handle of entries.keys()) {
        if (bytes + size <= maxBytes) break;
        remove(handle);
      }
      entries.set(entry.handle, { ...entry, bytes: size, expiresAt: at + ttlMs });
      bytes += size;
      return true;
    },
    get(handle, scope) {
      const entry = entries.get(handle);
      if (!entry) return undefined;
      const at = now();
      if (entry.expiresAt <= at) {
        remove(handle);
        return undefined;
      }
      if (scope !== undefined && entry.scope !== scope) return undefined;
      entries.delete(handle);
      entry.expiresAt = at + ttlMs;
      entries.set(handle, entry);
      return entry;
    },
    get bytes() {
      return bytes;
    },
    clear() {
      entries.clear();
      bytes = 0;
    },
  };
}
