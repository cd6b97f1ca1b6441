/**
 * Load-time containment of a tools.json tool's paths: the script inside `tools/`, `cwd` inside the
 * project, both by their real paths (symlinks followed, dangling ones by their target), and
 * `tools/` itself inside the project. The script plugin checks the script again at every call,
 * since links can change after load; these checks give the early, located error.
 */
import { lstatSync, readdirSync, readlinkSync, realpathSync, statSync } from "node:fs";
import path from "node:path";

/** Resolved once per load: the project's and `tools/`'s paths, as written and real. */
export interface ProjectPaths {
  root: string;
  realRoot: string;
  toolsDir: string;
  /** `tools/` with links followed; its lexical target when the link dangles. */
  realToolsDir: string;
  /**
   * The regular files (not links, not folders) directly in `tools/`, when listed: a script among
   * them needs no syscall of its own (10,000 scripts cost ~20,000 stat and realpath calls).
   */
  toolFiles?: ReadonlySet<string>;
}

export interface PathProblem {
  message: string;
  /** A problem that may fix itself (a script not written yet): the config still loads. */
  warning?: boolean;
}

/** Control characters (NUL included) make a path that no file system or log shows faithfully. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

export function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/** Where `target` really leads: its real path, or for a dangling link the path it names. */
function realTarget(target: string): string | undefined {
  try {
    return realpathSync.native(target);
  } catch {
    try {
      if (!lstatSync(target).isSymbolicLink()) return undefined;
      return path.resolve(path.dirname(target), readlinkSync(target));
    } catch {
      return undefined;
    }
  }
}

/** One listing of `tools/`; an unreadable folder lists nothing, and each script is then checked on its own. */
function listToolFiles(toolsDir: string): Set<string> {
  try {
    return new Set(readdirSync(toolsDir, { withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name));
  } catch {
    return new Set();
  }
}

/** `listToolFiles`: list `tools/` once, for a load that checks many scripts. */
export function resolveProjectPaths(root: string, options: { listToolFiles?: boolean } = {}): ProjectPaths {
  const realRoot = realTarget(root) ?? root;
  const toolsDir = path.join(root, "tools");
  const paths: ProjectPaths = { root, realRoot, toolsDir, realToolsDir: realTarget(toolsDir) ?? toolsDir };
  return options.listToolFiles ? { ...paths, toolFiles: listToolFiles(toolsDir) } : paths;
}

/** `tools/` may be a symlink to a folder inside the project (shared layouts), never outside it. */
export function checkToolsFolder(paths: ProjectPaths): PathProblem | undefined {
  if (isInside(paths.realRoot, paths.realToolsDir)) return undefined;
  return { message: `Expected tools/ inside the project, but it links to ${paths.realToolsDir}: scripts may not live outside the project` };
}

/** Spellings that look like paths elsewhere but would be read as odd names inside the folder. */
function spellingProblem(value: string, what: string, base: string): PathProblem | undefined {
  if (CONTROL_CHARACTER.test(value)) return { message: `Expected ${what} without control characters, got ${JSON.stringify(value)}` };
  if (value.includes("\\")) return { message: `Expected "/" as the folder separator in ${what}, got ${JSON.stringify(value)}: a backslash would be part of a file name` };
  if (value === "~" || value.startsWith("~/")) return { message: `Expected ${what} relative to ${base}, got ${JSON.stringify(value)}: "~" is not expanded` };
  return undefined;
}

/** The script's absolute path and what is wrong with it, if anything. */
export function checkScriptPath(paths: ProjectPaths, script: string): { absolute: string; problem?: PathProblem } {
  const spelling = spellingProblem(script, "a script path", "tools/");
  // A regular file directly in tools/ (a listed name has no separator) exists, is no folder, and its
  // real path is inside tools/'s: no syscall, and no path arithmetic either.
  if (!spelling && paths.toolFiles?.has(script)) return { absolute: paths.toolsDir + path.sep + script };
  const absolute = path.resolve(paths.toolsDir, script);
  if (spelling) return { absolute, problem: spelling };
  if (path.isAbsolute(script) || !isInside(paths.toolsDir, absolute)) {
    return { absolute, problem: { message: `Expected a path inside tools/, got ${JSON.stringify(script)}: scripts may not escape the tools folder` } };
  }
  const stats = statSync(absolute, { throwIfNoEntry: false });
  const real = realTarget(absolute);
  if (real !== undefined && !isInside(paths.realToolsDir, real) && !isInside(paths.toolsDir, real)) {
    const dangling = stats === undefined ? " (a link to a file that does not exist yet)" : "";
    return { absolute, problem: { message: `Expected a script inside tools/, but tools/${script} links to ${real} outside it${dangling}` } };
  }
  if (!stats) return { absolute, problem: { message: `Script not found: tools/${script} (calls will fail with SCRIPT_MISSING until it exists)`, warning: true } };
  if (stats.isDirectory()) return { absolute, problem: { message: `Expected a script file, got the folder ${path.relative(paths.root, absolute)}/` } };
  return { absolute };
}

/** The working folder's absolute path and what is wrong with it, if anything. */
export function checkCwd(paths: ProjectPaths, cwd: string | undefined): { absolute: string; problem?: PathProblem } {
  const absolute = path.resolve(paths.root, cwd ?? ".");
  if (cwd === undefined) return { absolute };
  const spelling = spellingProblem(cwd, "a cwd", "the project");
  if (spelling) return { absolute, problem: spelling };
  const real = realTarget(absolute);
  if (!isInside(paths.root, absolute) || (real !== undefined && !isInside(paths.realRoot, real))) {
    const links = real !== undefined && real !== absolute && isInside(paths.root, absolute) ? ` (it links to ${real})` : "";
    return { absolute, problem: { message: `Expected a folder inside the project, got ${JSON.stringify(cwd)}${links}` } };
  }
  return { absolute };
}
