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
import { enqueueProjectWrite, type ProjectWriteOptions } from "../files/write-queue.js";
import { ToolexecError } from "../errors/toolexec-error.js";
import { checkStoreKey, checkStoreValue, type Store, type StoreChange, type StoreKey } from "./store.js";
import { createStoreListeners } from "./store-listeners.js";
import { watchStoreFolder } from "./watch-store-folder.js";
import { createMemoryCounters } from "./memory-counters.js";

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

/** A change the watcher saw, announced unless it is what this store itself last wrote there. */
async function announceExternal(key: StoreKey, file: string, ownWrites: Map<StoreKey, string | null>, announce: (change: StoreChange) => void): Promise<void> {
  const text = await readText(file).catch(() => undefined);
  if (ownWrites.has(key) && ownWrites.get(key) === (text ?? null)) return;
  ownWrites.delete(key);
  announce({ key, kind: text === undefined ? "delete" : "set", origin: "external" });
}

/** Write `value` atomically to `file`, its folder created, in the project's write queue. */
function writeInQueue(folder: string, file: string, value: string, options: ProjectWriteOptions): Promise<void> {
  return enqueueProjectWrite(
    folder,
    async () => {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFileAtomic(file, value);
    },
    options,
  );
}

function closedError(folder: string): never {
  throw new ToolexecError("EXECUTOR_CLOSED", `The store ${folder} is closed`);
}

/** The keys under `folder` starting with `prefix`, sorted: the folder of the prefix is read, not the whole store. */
async function listKeys(folder: string, prefix: StoreKey): Promise<StoreKey[]> {
  const base = prefix.includes("/") ? prefix.slice(0, prefix.lastIndexOf("/")) : "";
  return (await keysUnder(folder, path.join(folder, ...base.split("/")))).filter((key) => key.startsWith(prefix)).sort();
}

/** Remove `file`; false when it was not there. */
async function removeFile(file: string): Promise<boolean> {
  try {
    await rm(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/**
 * A store of files under `root`. Counters are kept in this process's memory (not files): replicas
 * share them through a Redis store instead.
 *
 * `options.guarded: false`: its writes skip the guard a shared store puts on the project's write
 * queue (the shared store's own copy of the project's files writes through it).
 *
 * @example
 * const store = createFileStore("/project");
 * await store.get("tools.json"); // the project's tools.json, as text
 */
export function createFileStore(root: string, options: ProjectWriteOptions = {}): Store {
  const folder = path.resolve(root);
  const instanceId = randomUUID();
  const listeners = createStoreListeners();
  // What this store last wrote per key (null: deleted), so the watcher does not announce it twice.
  const ownWrites = new Map<StoreKey, string | null>();
  const counters = createMemoryCounters();
  let closed = false;
  const fileOf = (key: StoreKey) => path.join(folder, ...key.split("/"));
  const open = (key: StoreKey, prefix = false) => (closed ? closedError(folder) : checkStoreKey(key, prefix));
  const announce = (change: StoreChange) => listeners.emit(change);
  const watcher = watchStoreFolder(folder, (key) => void announceExternal(key, fileOf(key), ownWrites, announce));

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
      checkStoreValue(key, value);
      ownWrites.set(key, value);
      await writeInQueue(folder, fileOf(key), value, options);
      announce({ key, kind: "set", origin: instanceId });
    },
    async delete(key) {
      open(key);
      ownWrites.set(key, null);
      const existed = await enqueueProjectWrite(folder, () => removeFile(fileOf(key)), options);
      if (existed) announce({ key, kind: "delete", origin: instanceId });
      return existed;
    },
    async list(prefix) {
      open(prefix, true);
      return listKeys(folder, prefix);
    },
    async increment(key, amount = 1, options = {}) {
      open(key);
      return counters.increment(key, amount, options);
    },
    subscribe(prefix, listener) {
      open(prefix, true);
      watcher.watch(prefix);
      return listeners.add(prefix, listener);
    },
    close() {
      closed = true;
      listeners.clear();
      counters.clear();
      return watcher.close();
    },
  };
}
