/**
 * Scoped API keys, kept in the project's store (DESIGN §17) as hashes only, one record per key under
 * `.toolexec/identity/api-keys/<id>.json`: a label, an expiry, a profile, tool scopes and a tier.
 * A key is `txk_<id>_<secret>`: the id finds its record, the SHA-256 of the whole key must match.
 * The key itself is shown once, by `create`, and never stored.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { ToolexecError } from "../../index.js";
import { OPERATOR_SCOPE, type Principal, type Tier } from "./principal.js";

/** The part of a store keys need (a `Store` of `toolexec`'s storage interface has it). */
export interface KeyStorage {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  list(prefix: string): Promise<string[]>;
  /** Follow writes under `prefix` (a `Store` announces them): lets serving keep "is there a key" between requests. */
  subscribe?(prefix: string, listener: () => void): () => void;
}

export const API_KEYS_PREFIX = ".toolexec/identity/api-keys/";
const KEY_PATTERN = /^txk_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

/** A key's record as stored and listed: never the key. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  /** SHA-256 of the whole key, hex. */
  hash: string;
  created: string;
  /** When it stops working (ISO time), or null. */
  expires: string | null;
  profile: string | null;
  scopes: string[];
  tier: Tier;
  /** When it was revoked (ISO time), or null. */
  revoked: string | null;
}

export interface CreateKeyOptions {
  name: string;
  profile?: string;
  scopes?: string[];
  tier?: Tier;
  /** Lifetime in ms from now; absent: no expiry. */
  expiresInMs?: number;
}

const digest = (text: string) => createHash("sha256").update(text).digest("hex");
const recordKey = (id: string) => `${API_KEYS_PREFIX}${id}.json`;

async function readRecord(storage: KeyStorage, id: string): Promise<ApiKeyRecord | undefined> {
  const text = await storage.get(recordKey(id));
  return text === undefined ? undefined : (JSON.parse(text) as ApiKeyRecord);
}

/** Whether `text` has the shape of a key (and so is checked as one, not as a JWT or the static token). */
export const looksLikeApiKey = (text: string): boolean => text.startsWith("txk_");

/**
 * A new key: its record is stored, the key is returned once.
 *
 * @example
 * const { id, key } = await createApiKey(store, { name: "ci", tier: "read", expiresInMs: 86_400_000 });
 */
export async function createApiKey(storage: KeyStorage, options: CreateKeyOptions, now = Date.now()): Promise<{ id: string; key: string; record: ApiKeyRecord }> {
  if (typeof options.name !== "string" || options.name.trim() === "") throw new ToolexecError("INVALID_INPUT", "A key needs a name (a label to tell it by)");
  const id = randomBytes(8).toString("hex");
  const key = `txk_${id}_${randomBytes(32).toString("base64url")}`;
  const record: ApiKeyRecord = {
    id,
    name: options.name,
    hash: digest(key),
    created: new Date(now).toISOString(),
    expires: options.expiresInMs === undefined ? null : new Date(now + options.expiresInMs).toISOString(),
    profile: options.profile ?? null,
    scopes: options.scopes ?? [],
    tier: options.tier ?? "read",
    revoked: null,
  };
  await storage.set(recordKey(id), `${JSON.stringify(record, null, 2)}\n`);
  return { id, key, record };
}

/** Every key's record, oldest first. */
export async function listApiKeys(storage: KeyStorage): Promise<ApiKeyRecord[]> {
  const keys = (await storage.list(API_KEYS_PREFIX)).filter((key) => key.endsWith(".json"));
  const records = await Promise.all(keys.map((key) => readRecord(storage, key.slice(API_KEYS_PREFIX.length, -".json".length))));
  return records.filter((record): record is ApiKeyRecord => record !== undefined).sort((a, b) => a.created.localeCompare(b.created));
}

/** Revoke key `id`; false when there is no such key. Revoked keys stay listed, refused. */
export async function revokeApiKey(storage: KeyStorage, id: string, now = Date.now()): Promise<boolean> {
  const record = /^[0-9a-f]{16}$/.test(id) ? await readRecord(storage, id) : undefined;
  if (record === undefined) return false;
  if (record.revoked === null) await storage.set(recordKey(id), `${JSON.stringify({ ...record, revoked: new Date(now).toISOString() }, null, 2)}\n`);
  return true;
}

/** Whether any key that is not revoked exists: then every request needs a credential. */
export async function anyActiveKey(storage: KeyStorage): Promise<boolean> {
  return (await listApiKeys(storage)).some((record) => record.revoked === null);
}

/** The principal a presented key stands for, or why it is refused. */
export async function checkApiKey(storage: KeyStorage, presented: string, now = Date.now()): Promise<{ ok: true; principal: Principal } | { ok: false; message: string }> {
  const match = KEY_PATTERN.exec(presented);
  const record = match ? await readRecord(storage, match[1]!) : undefined;
  const matches = record !== undefined && timingSafeEqual(Buffer.from(record.hash, "hex"), Buffer.from(digest(presented), "hex"));
  if (!matches) return { ok: false, message: "Unknown API key" };
  if (record.revoked !== null) return { ok: false, message: `API key ${record.id} was revoked` };
  if (record.expires !== null && Date.parse(record.expires) <= now) return { ok: false, message: `API key ${record.id} expired at ${record.expires}` };
  const operator = record.scopes.includes(OPERATOR_SCOPE) ? { operator: true } : {};
  return { ok: true, principal: { id: record.id, kind: "key", scopes: record.scopes, tier: record.tier, ...(record.profile === null ? {} : { profile: record.profile }), ...operator } };
}
