/**
 * Watches the config files and the scripts in tools/ with chokidar and calls back, debounced,
 * after a burst of changes. The project root is watched (not the files themselves) so editors'
 * atomic saves — write a temp file, rename it over the original — are seen as one change.
 *
 * The executor does not wait for chokidar (its load and first scan, ~15 ms of CPU), which starts once
 * the host is idle: a snapshot of every watched file (identity, size, times) is taken before the
 * executor is ready, and once chokidar is ready a second one is compared with it, so a change made
 * between the two is reported too.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { whenHostIdle } from "../schedule/when-host-idle.js";
import type { FSWatcher } from "chokidar";
import type { Logger } from "../plugin-contract.js";

export interface ConfigWatcherOptions {
  root: string;
  /** Absolute paths of the config files. */
  files: string[];
  debounceMs: number;
  /** After a burst of changes, with the absolute paths that changed in it. */
  onChange(paths: string[]): void;
  logger: Logger;
}

export interface ConfigWatcher {
  close(): Promise<void>;
}

/** The shortest quiet period before a reload: longer than chokidar's 50 ms window for repeated changes. */
export const MIN_QUIET_MS = 60;

const IGNORED_IN_TOOLS = /(^|[/\\])(__pycache__|node_modules|\.git)([/\\]|$)|\.(pyc|swp|swx|tmp)$|~$/;

export async function watchConfig(options: ConfigWatcherOptions): Promise<ConfigWatcher> {
  const toolsDir = path.join(options.root, "tools");
  const files = new Set(options.files);
  const folders = new Set<string>([options.root]);
  for (const file of options.files) {
    for (let folder = path.dirname(file); folder.startsWith(options.root) && !folders.has(folder); folder = path.dirname(folder)) folders.add(folder);
  }
  const inTools = (candidate: string) => candidate === toolsDir || candidate.startsWith(toolsDir + path.sep);
  const ignored = (candidate: string) => {
    if (files.has(candidate) || folders.has(candidate)) return false;
    return !inTools(candidate) || IGNORED_IN_TOOLS.test(path.relative(toolsDir, candidate));
  };

  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let changed = new Set<string>();
  // chokidar drops a `change` of a path within 50 ms of the last one it reported and never
  // re-emits it; waiting past that window means the reload reads any change it dropped.
  const quietMs = Math.max(options.debounceMs, MIN_QUIET_MS);
  const schedule = (_event: string, changedPath: string) => {
    if (closed) return;
    changed.add(changedPath);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const paths = [...changed];
      changed = new Set();
      options.onChange(paths);
    }, quietMs);
  };

  const watched = () => snapshotFiles(options.files, toolsDir, ignored);
  const before = watched();
  // Started once the host is idle (serve lists its tools first), and loaded then: an executor with
  // `watch: false` never needs it (~8 ms of CPU). close() ends the wait at once.
  let wake = () => {};
  const idle = new Promise<void>((resolve) => {
    wake = resolve;
    whenHostIdle(resolve, { keepAlive: true });
  });
  const starting = idle.then(async () => {
    const watcher = closed ? undefined : await startChokidar(options, ignored, schedule, () => closed);
    // What changed before chokidar was ready: reported as it would have.
    const after = watched();
    for (const file of new Set([...before.keys(), ...after.keys()])) if (before.get(file) !== after.get(file)) schedule("change", file);
    return watcher;
  });
  starting.catch((error: unknown) => options.logger.warn(`Config watcher could not start; edits are not reloaded: ${(error as Error).message}`));

  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      wake();
      const watcher = await starting.catch(() => undefined);
      await watcher?.close();
    },
  };
}

/** chokidar on the root, once ready; nothing when the watcher closed while it loaded. */
async function startChokidar(options: ConfigWatcherOptions, ignored: (candidate: string) => boolean, schedule: (event: string, changedPath: string) => void, isClosed: () => boolean): Promise<FSWatcher | undefined> {
  const { watch } = await import("chokidar");
  if (isClosed()) return undefined;
  const watcher = watch(options.root, { ignoreInitial: true, ignored, atomic: true, persistent: true });
  watcher.on("all", schedule);
  watcher.on("error", (error) => options.logger.warn(`Config watcher error: ${(error as Error).message}`));
  await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
  return watcher;
}

/** Each watched file that exists, with what an edit, an atomic save or a replacement changes: inode, size, times. */
function snapshotFiles(files: Iterable<string>, toolsDir: string, ignored: (candidate: string) => boolean): Map<string, string> {
  const seen = new Map<string, string>();
  const note = (file: string) => {
    try {
      const stats = statSync(file);
      seen.set(file, `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`);
    } catch {
      // Absent: a file that appears later differs from no entry.
    }
  };
  for (const file of files) note(file);
  const walk = (folder: string) => {
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const candidate = path.join(folder, entry.name);
      if (ignored(candidate)) continue;
      if (entry.isDirectory()) walk(candidate);
      else note(candidate);
    }
  };
  walk(toolsDir);
  return seen;
}
