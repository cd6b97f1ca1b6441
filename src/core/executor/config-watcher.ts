/**
 * Watches the config files and the scripts in tools/ with chokidar and calls back, debounced,
 * after a burst of changes. The project root is watched (not the files themselves) so editors'
 * atomic saves — write a temp file, rename it over the original — are seen as one change.
 */
import path from "node:path";
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

  // Loaded here, not at start: an executor with `watch: false` never needs it (~8 ms of CPU).
  const { watch } = await import("chokidar");
  const watcher: FSWatcher = watch(options.root, { ignoreInitial: true, ignored, atomic: true, persistent: true });
  watcher.on("all", schedule);
  watcher.on("error", (error) => options.logger.warn(`Config watcher error: ${(error as Error).message}`));
  await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));

  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      await watcher.close();
    },
  };
}
