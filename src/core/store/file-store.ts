/**
 * The files driver (the default): a key is a path under the store's folder (the project root), so
 * `tools.json` and `.toolexec/saved-tools/<name>.js` are today's files. Writes go through the
 * project's one write queue and are atomic (temp file, fsync, rename); changes made through this
 * store are announced at once, and edits by other processes or by hand through file watching.
 */
import { randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomic } from "../files/atomic-write.js";
import { enqueueProjectWrite } from "../files/write-queue.js";
import { ToolexecError } from "../errors/toolexec-error.js";
import { checkStoreKey, type Store, type StoreChange, type StoreKey } from "./store.js";
import { createStoreListeners } from "./store-listeners.js";
import { watchStoreFolder } from "./watch-store-folder.js";

/** A counter: its count and when its window ends (epoch ms; absent: never). */
interface Counter {
  count: number;
  resetAt?: number;
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "EISDIR") return undefined;
    throw error;
  }
}

/** Keys of every file under `folder` (recursively), relative to `root`; temp files left out. */
async function keysUnder(root: string, folder: string): Promise<StoreKey[]> {
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true, recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") return [];
    throw error;
  }
  return entries.filter((entry) => entry.isFile() && !entry.name.endsWith(".tmp")).map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"));
}

/**
 * A store of files under `root`. Counters are kept in this process's memory (not files): replicas
 * share them through a Redis store instead.
 *
 * @example
 * const store = createFileStore("/project");
 * await store.get("tools.json"); // the project's tools.json, as text
 */
export function createFileStore(root: string): Store {
  const folder = path.resolve(root);
  const instanceId = randomUUID();
  const listeners = createStoreListeners();
  /** What this store last wrote per key (null: deleted), so the watcher does not announce it twice. */
  const ownWrites = new Map<StoreKey, string | null>();
  /** Counters live in memory: one process shares them with no one, and a rate-limit window needs no disk. */
  const counters = new Map<StoreKey, Counter>();
  let closed = false;
  const fileOf = (key: StoreKey) => path.join(folder, ...key.split("/"));
  const open = (key: StoreKey, prefix = false) => {
    if (closed) throw new ToolexecError("EXECUTOR_CLOSED", `The store ${folder} is closed`);
    checkStoreKey(key, prefix);
  };
  const announce = (change: StoreChange) => listeners.emit(change);
  const watcher = watchStoreFolder(folder, async (key) => {
    const text = await readText(fileOf(key)).catch(() => undefined);
    if (ownWrites.has(key) && ownWrites.get(key) === (text ?? null)) return;
    ownWrites.delete(key);
    announce({ key, kind: text === undefined ? "delete" : "set", origin: "external" });
  });

  return {
    driver: "files",
    location: `files:${folder}`,
    instanceId,
    async get(key) {
      open(key);
      return readText(fileOf(key));
    },
    async set(key, value) {
      open(key);
      if (typeof value !== "string") throw new ToolexecError("INVALID_INPUT", `A store value must be a string, got ${typeof value} at ${key}`);
      await enqueueProjectWrite(folder, async () => {
        await mkdir(path.dirname(fileOf(key)), { recursive: true });
        ownWrites.set(key, value);
        await writeFileAtomic(fileOf(key), value);
      });
      announce({ key, kind: "set", origin: instanceId });
    },
    async delete(key) {
      open(key);
      const existed = await enqueueProjectWrite(folder, async () => {
        ownWrites.set(key, null);
        try {
          await rm(fileOf(key));
          return true;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
          throw error;
        }
      });
      if (existed) announce({ key, kind: "delete", origin: instanceId });
      return existed;
    },
    async list(prefix) {
      open(prefix, true);
      const base = prefix.includes("/") ? prefix.slice(0, prefix.lastIndexOf("/")) : "";
      const keys = await keysUnder(folder, base === "" ? folder : fileOf(base));
      return keys.filter((key) => key.startsWith(prefix)).sort();
    },
    async increment(key, amount = 1, options = {}) {
      open(key);
      const now = Date.now();
      const current = counters.get(key);
      const counter = current !== undefined && (current.resetAt === undefined || current.resetAt > now) ? current : { count: 0, ...(options.ttlMs === undefined ? {} : { resetAt: now + options.ttlMs }) };
      counter.count += amount;
      counters.set(key, counter);
      return counter.count;
    },
    subscribe(prefix, listener) {
      open(prefix, true);
      watcher.watch(prefix);
      return listeners.add(prefix, listener);
    },
    async close() {
      closed = true;
      listeners.clear();
      counters.clear();
      await watcher.close();
    },
  };
}
