/**
 * Servers added at run time. Alone, a process keeps them in memory. With a shared store
 * (`runtimeServers` option: replicas on Redis) the store holds them: `addServer` keeps the entry
 * there before connecting (refused with `SERVICE_UNAVAILABLE` while it is down), `removeServer`
 * forgets it there first, and every replica follows the store, starting its own connection for a
 * server another replica added and closing it when one removes it. After the store was unreachable
 * a replica re-reads it, and writes back the servers it runs that the store lost (a Redis restarted
 * without its data is seeded again, as the project's files are).
 */
import { isToolexecError } from "../../core/errors/toolexec-error.js";
import type { AddServerResult, McpInstanceRun, McpShared } from "./mcp-api.js";
import { prepareRuntimeServer, type AddServerOptions } from "./prepare-runtime-server.js";
import type { RuntimeServerStore, StoredRuntimeServer } from "./runtime-server-store.js";
import { createServerConnection } from "./server-connection.js";

type AddServerError = Extract<AddServerResult, { ok: false }>["error"];

/** What the plugin follows of the store, per plugin object (one per executor). */
interface Following {
  /** The newest instance: remote servers connect with its context. */
  run: McpInstanceRun;
  /** The servers this process runs as the store has them, by name (their stored form as JSON). */
  agreed: Map<string, string>;
  /** Changes applied one at a time, in order. */
  queue: Promise<void>;
  stop(): void;
}

/** What keeping a server in the store may answer: the store down, or its key missing or too short. */
const KEEP_FAULTS = new Set(["SERVICE_UNAVAILABLE", "CONFIG_MISSING", "CONFIG_INVALID"]);

/** How soon a re-read of the store that failed is tried again. */
const RESYNC_RETRY_MS = 1_000;

const following = new WeakMap<McpShared, Following>();

/** Add a server now (and, with a shared store, keep it there first, for every replica). */
export async function addRuntimeServer(run: McpInstanceRun, name: string, entry: unknown, addOptions: AddServerOptions): Promise<AddServerResult> {
  const servers = run.shared.options.runtimeServers;
  const stored: StoredRuntimeServer = { name, trusted: addOptions.trusted === true, entry };
  return connectRuntimeServer(run, stored, async () => {
    if (!servers) return undefined;
    try {
      await servers.save(stored);
      following.get(run.shared)?.agreed.set(name, JSON.stringify(stored));
      return undefined;
    } catch (error) {
      if (!isToolexecError(error) || !KEEP_FAULTS.has(error.code)) throw error;
      return { code: error.code as AddServerError["code"], message: error.message };
    }
  });
}

/** Remove a server here (and, with a shared store, from it first, so every replica removes it). Throws the store's `SERVICE_UNAVAILABLE`. */
export async function removeRuntimeServer(shared: McpShared, name: string): Promise<boolean> {
  const servers = shared.options.runtimeServers;
  const forgotten = servers ? await servers.remove(name) : false;
  following.get(shared)?.agreed.delete(name);
  return (await shared.pool.removeRuntime(name)) || forgotten;
}

/** Check, keep (`keep` may refuse), connect: waits for the first connection like start-up does. */
async function connectRuntimeServer(run: McpInstanceRun, stored: StoredRuntimeServer, keep: () => Promise<AddServerError | undefined>): Promise<AddServerResult> {
  const { shared } = run;
  if (run.closed) return { ok: false, error: { code: "EXECUTOR_CLOSED", message: "The MCP plugin is closed" } };
  const prepared = await prepareRuntimeServer(stored.name, stored.entry, { trusted: stored.trusted }, {
    root: run.context.root,
    taken: new Set(run.all().map((connection) => connection.entry.name)),
    ...(shared.options.resolveHostname ? { resolveAll: shared.options.resolveHostname } : {}),
  });
  if (!prepared.ok) return { ok: false, error: prepared.error as AddServerError };
  const refused = await keep();
  if (refused) return { ok: false, error: refused };
  const connection = createServerConnection(prepared.entry, run.connectionContext(prepared.entry, "runtime", stored.trusted));
  shared.pool.addRuntime(connection);
  await connection.start(shared.startupTimeoutMs);
  return { ok: true, server: connection.info() };
}

/**
 * Follow the store's servers from this instance on (the first instance starts following, later ones
 * take over as the context remote servers connect with); resolves once the servers the store holds
 * now were added. A store that is down is logged: the servers come once it is back.
 */
export async function followRuntimeServers(run: McpInstanceRun): Promise<void> {
  const servers = run.shared.options.runtimeServers;
  if (!servers) return;
  const existing = following.get(run.shared);
  if (existing) {
    existing.run = run;
    return;
  }
  const state: Following = { run, agreed: new Map(), queue: Promise.resolve(), stop: () => {} };
  following.set(run.shared, state);
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const enqueue = (task: () => Promise<void>) => {
    const next = state.queue.then(task).then(
      () => true,
      (error: unknown) => {
        state.run.context.logger.warn(`Servers added at run time not synced with the store: ${(error as Error).message}`);
        return false;
      },
    );
    state.queue = next.then(() => undefined);
    return next;
  };
  // Until it succeeds: the store may answer its subscribers before its commands once back.
  const resyncUntilDone = async (): Promise<void> => {
    clearTimeout(retry);
    if (!(await enqueue(() => resync(state, servers))) && !stopped) retry = setTimeout(() => void resyncUntilDone(), RESYNC_RETRY_MS).unref();
  };
  const unsubscribe = servers.subscribe((change) => void (change.kind === "resync" ? resyncUntilDone() : enqueue(() => applyStored(state, servers, change.name))));
  state.stop = () => {
    stopped = true;
    clearTimeout(retry);
    unsubscribe();
  };
  await resyncUntilDone();
}

/** Stop following (the plugin's last instance closes). */
export function stopFollowingRuntimeServers(shared: McpShared): void {
  following.get(shared)?.stop();
  following.delete(shared);
}

/** Make this process run `name` as the store has it: add, replace or remove. */
async function applyStored(state: Following, servers: RuntimeServerStore, name: string): Promise<void> {
  const { pool } = state.run.shared;
  let stored: StoredRuntimeServer | undefined;
  try {
    stored = await servers.read(name);
  } catch (error) {
    // The store down is retried; a record this replica cannot open (no key, another key) is this server's problem only.
    if (!isToolexecError(error) || error.code === "SERVICE_UNAVAILABLE") throw error;
    state.run.context.logger.warn(`The server "${name}" another replica added cannot run here: ${error.message}`);
    return;
  }
  const form = stored === undefined ? undefined : JSON.stringify(stored);
  if (form !== undefined && state.agreed.get(name) === form && pool.runtime.has(name)) return;
  if (pool.runtime.has(name)) await pool.removeRuntime(name);
  state.agreed.delete(name);
  if (stored === undefined || state.run.closed) return;
  const added = await connectRuntimeServer(state.run, stored, async () => undefined);
  if (added.ok) state.agreed.set(name, form!);
  else state.run.context.logger.warn(`The server "${name}" another replica added cannot run here: ${added.error.message}`);
}

/** Back after an outage: take the store's servers, and write back those it lost that this process runs. */
async function resync(state: Following, servers: RuntimeServerStore): Promise<void> {
  const names = new Set(await servers.names());
  for (const name of names) await applyStored(state, servers, name);
  for (const [name, form] of state.agreed) {
    if (!names.has(name) && state.run.shared.pool.runtime.has(name)) await servers.save(JSON.parse(form) as StoredRuntimeServer);
  }
}
