/**
 * Servers added at run time (`executor.addServer`), kept in a shared store (Redis) so every replica
 * runs them: one record per server under `.toolexec/servers/`, its entry sealed with
 * `TOOLEXEC_STORE_KEY` (AES-256-GCM) because entries carry secrets (env, headers, OAuth client
 * secrets, tokens in URLs). Only the name (the key) and whether it was trusted are in clear.
 */
import { ToolexecError } from "../../core/errors/toolexec-error.js";
import { createSecretBox, type SecretBox } from "../../core/store/secret-box.js";
import type { Store } from "../../core/store/store.js";

/** Where the records live in the store. */
export const RUNTIME_SERVERS_PREFIX = ".toolexec/servers/";

/** One server as a replica adds it: the entry as the host gave it (`${VAR}` expanded by each replica). */
export interface StoredRuntimeServer {
  name: string;
  trusted: boolean;
  entry: unknown;
}

/** A change of another process: a server added or replaced (`set`), removed, or everything to re-read (`resync`). */
export interface RuntimeServerChange {
  kind: "set" | "delete" | "resync";
  /** Empty for `resync`. */
  name: string;
}

export interface RuntimeServerStore {
  /** Keep (or replace) a server; rejects with the store's `SERVICE_UNAVAILABLE`, or `CONFIG_MISSING` without a key. */
  save(server: StoredRuntimeServer): Promise<void>;
  /** Forget a server; false when the store had none by that name. */
  remove(name: string): Promise<boolean>;
  /** One server, or undefined. A record that cannot be opened (another key, damaged) throws `AUTH_FAILED`. */
  read(name: string): Promise<StoredRuntimeServer | undefined>;
  /** The names of every kept server. */
  names(): Promise<string[]>;
  /** Changes made by other processes; returns the undo function. */
  subscribe(listener: (change: RuntimeServerChange) => void): () => void;
}

interface ServerRecord {
  version: 1;
  trusted: boolean;
  /** The entry as JSON, sealed. */
  sealed: string;
}

/**
 * @example
 * const servers = createRuntimeServerStore(executorStore); // needs TOOLEXEC_STORE_KEY at the first server
 * await servers.save({ name: "docs", trusted: false, entry: { url: "https://docs.example.com/mcp" } });
 */
export function createRuntimeServerStore(store: Store, environment: { [name: string]: string | undefined } = process.env): RuntimeServerStore {
  let box: SecretBox | undefined;
  const sealer = () => (box ??= createSecretBox(environment));
  const keyOf = (name: string) => `${RUNTIME_SERVERS_PREFIX}${name}`;
  return {
    async save({ name, trusted, entry }) {
      const record: ServerRecord = { version: 1, trusted, sealed: sealer().seal(JSON.stringify(entry)) };
      await store.set(keyOf(name), JSON.stringify(record));
    },
    remove: (name) => store.delete(keyOf(name)),
    async read(name) {
      const text = await store.get(keyOf(name));
      if (text === undefined) return undefined;
      let record: ServerRecord;
      try {
        record = JSON.parse(text) as ServerRecord;
      } catch (error) {
        throw new ToolexecError("AUTH_FAILED", `The stored server "${name}" (${store.location}) is damaged: ${(error as Error).message}`, { cause: error });
      }
      if (record.version !== 1 || typeof record.sealed !== "string") throw new ToolexecError("AUTH_FAILED", `The stored server "${name}" (${store.location}) is not a version 1 record`);
      return { name, trusted: record.trusted === true, entry: JSON.parse(sealer().open(record.sealed)) as unknown };
    },
    async names() {
      return (await store.list(RUNTIME_SERVERS_PREFIX)).map((key) => key.slice(RUNTIME_SERVERS_PREFIX.length));
    },
    subscribe(listener) {
      return store.subscribe(RUNTIME_SERVERS_PREFIX, (change) => {
        if (change.kind === "resync") listener({ kind: "resync", name: "" });
        else if (change.origin !== store.instanceId) listener({ kind: change.kind, name: change.key.slice(RUNTIME_SERVERS_PREFIX.length) });
      });
    },
  };
}
