/**
 * File watching for the files driver: the folders (or single files) of subscribed prefixes are
 * watched, lazily on the first subscription, so a change by another process or by hand reaches
 * subscribers too. A prefix that is part of a file name (`list/a`) watches only the file `list/a`.
 */
import path from "node:path";
import type { FSWatcher } from "chokidar";
import type { StoreKey } from "./store.js";

export interface StoreFolderWatcher {
  /** Watch the folder of a prefix ending in `/` (or the root for `""`), or the one file a key names (idempotent). */
  watch(prefix: StoreKey): void;
  close(): Promise<void>;
}

/** Never store data: dependencies, version control, temp files of atomic writes. */
const IGNORED = /(^|[/\\])(node_modules|\.git)([/\\]|$)|\.tmp$/;

export function watchStoreFolder(root: string, onChange: (key: StoreKey) => void): StoreFolderWatcher {
  let watcher: Promise<FSWatcher> | undefined;
  const watched = new Set<string>();
  const start = async () => {
    const { watch } = await import("chokidar");
    const created = watch([], { ignoreInitial: true, ignored: (candidate: string) => IGNORED.test(candidate), atomic: true, persistent: false });
    created.on("all", (event, changed) => {
      if (event === "addDir" || event === "unlinkDir") return;
      const key = path.relative(root, changed).split(path.sep).join("/");
      if (!key.startsWith("..") && key !== "") onChange(key);
    });
    return created;
  };
  return {
    watch(prefix) {
      const folder = path.join(root, ...prefix.split("/").filter((segment) => segment !== ""));
      if (watched.has(folder)) return;
      watched.add(folder);
      watcher ??= start();
      void watcher.then((created) => created.add(folder));
    },
    async close() {
      if (watcher) await (await watcher).close();
    },
  };
}
