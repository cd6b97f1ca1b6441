/**
 * The server connections of one executor, shared by the successive instances of the `mcp` plugin.
 * On a reload the executor starts a new instance before closing the old one: a server whose entry
 * did not change is handed to the new instance as it is (no reconnection); a changed server gets a
 * new connection; a server no instance holds any more is closed. Servers added at run time live
 * here too, beside the config, until removed or until the last instance closes.
 */
import type { McpServerEntry } from "./config/resolve-mcp-server.js";
import { createFifoSemaphore, type FifoSemaphore } from "../../core/schedule/fifo-semaphore.js";
import { createServerConnection, type ConnectionContext, type ServerConnection } from "./server-connection.js";

export interface ServerPool {
  /** A connection for `entry`: the existing one when its entry is unchanged, else a new one. */
  acquire(entry: McpServerEntry, context: ConnectionContext): ServerConnection;
  /** Give one back; the last holder's release closes it. */
  release(connection: ServerConnection): Promise<void>;
  /** The per-server concurrency gate (shared by every instance holding the connection). */
  gate(connection: ServerConnection): FifoSemaphore;
  readonly runtime: ReadonlyMap<string, ServerConnection>;
  addRuntime(connection: ServerConnection): void;
  removeRuntime(name: string): Promise<boolean>;
  /** Called after a runtime server was added or removed. */
  onRuntimeChanged(listener: () => void): () => void;
  closeRuntime(): Promise<void>;
}

export function createServerPool(): ServerPool {
  const current = new Map<string, { connection: ServerConnection; key: string }>();
  const holders = new Map<ServerConnection, number>();
  const gates = new WeakMap<ServerConnection, FifoSemaphore>();
  const runtime = new Map<string, ServerConnection>();
  const runtimeListeners = new Set<() => void>();
  const notifyRuntime = () => {
    for (const listener of [...runtimeListeners]) listener();
  };

  return {
    acquire(entry, context) {
      // The file-wide start cap is not the server's own: a change of it keeps the connection.
      const key = JSON.stringify({ ...entry, maxConcurrentStarts: undefined });
      const existing = current.get(entry.name);
      if (existing && existing.key === key && holders.has(existing.connection)) {
        holders.set(existing.connection, holders.get(existing.connection)! + 1);
        return existing.connection;
      }
      const connection = createServerConnection(entry, context);
      current.set(entry.name, { connection, key });
      holders.set(connection, 1);
      return connection;
    },
    async release(connection) {
      const count = (holders.get(connection) ?? 1) - 1;
      if (count > 0) {
        holders.set(connection, count);
        return;
      }
      holders.delete(connection);
      if (current.get(connection.entry.name)?.connection === connection) current.delete(connection.entry.name);
      gates.get(connection)?.rejectAll(new Error("server closed"));
      await connection.close();
    },
    gate(connection) {
      let gate = gates.get(connection);
      if (!gate) gates.set(connection, (gate = createFifoSemaphore(connection.entry.maxConcurrency)));
      return gate;
    },
    runtime,
    addRuntime(connection) {
      runtime.set(connection.entry.name, connection);
      notifyRuntime();
    },
    async removeRuntime(name) {
      const connection = runtime.get(name);
      if (!connection) return false;
      runtime.delete(name);
      notifyRuntime();
      await connection.close();
      return true;
    },
    onRuntimeChanged(listener) {
      runtimeListeners.add(listener);
      return () => runtimeListeners.delete(listener);
    },
    async closeRuntime() {
      const all = [...runtime.values()];
      runtime.clear();
      await Promise.all(all.map((connection) => connection.close()));
    },
  };
}
