/**
 * tools.json's `pythonModules`: the Python files, or folders of them, whose marked functions
 * (`@tool`, `@mcp.tool()`) become tools. Listing is the opt-in, since importing a file runs it.
 * A folder brings its own `.py` files (not its subfolders'), skipping names that start with `_`
 * or `.` (helpers, `__init__.py`), in name order; the python plugin reads the tools at start.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { JsonPath } from "../../../core/json/parse-json-document.js";
import { checkCwd, checkScriptPath, type ProjectPaths } from "../../../core/config/check-tool-paths.js";
import type { ToolDefaults } from "../../../core/plugin-config.js";
import type { PythonModuleFile } from "./python-modules-schema.js";
import type { PythonEnvironmentSpec } from "../../../core/python-environments/python-requirements.js";

/** One Python file to discover tools in, with the settings of its tools: the python plugin's entry. */
export interface PythonModuleEntry {
  /** Absolute path of the module. */
  module: string;
  /** The module relative to tools/. */
  modulePath: string;
  /** Python command or absolute interpreter path. */
  interpreter: string;
  /** Budget per call, unless a tool's `@tool(timeout=...)` sets one. */
  timeoutMs?: number;
  /** Unless a tool's `@tool(parallel=...)` says. */
  parallel: boolean;
  env: Record<string, string>;
  /** Absolute working directory of the worker. */
  cwd: string;
  memoryLimitMb?: number;
  /** The environment its worker runs in, built on first use from `interpreter`; absent: `interpreter` as it is. */
  pythonEnvironment?: PythonEnvironmentSpec;
}

export interface ModuleResolution {
  paths: ProjectPaths;
  defaults: ToolDefaults;
  resolveEnv(env: Record<string, string>, at: JsonPath): Record<string, string>;
  resolveInterpreter(interpreter: string | undefined): string;
  /** The environment of one file of an item (its own `python`, a pyproject.toml beside it, the project's). */
  resolveEnvironment(item: Exclude<PythonModuleFile, string>, index: number, module: string): PythonEnvironmentSpec | undefined;
  report(at: JsonPath, message: string, warning?: boolean): void;
}

/** The `.py` files a folder brings, relative to tools/. */
function filesOfFolder(folder: string, relative: string): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .filter((item) => item.isFile() && item.name.endsWith(".py") && !/^[_.]/.test(item.name))
    .map((item) => path.posix.join(relative, item.name))
    .sort();
}

/**
 * Resolve `pythonModules` into one entry per file; a file listed twice is kept once (the first).
 * Holes (items refused by the schema) are skipped. Paths reported are inside `pythonModules` (`[index, "cwd"]`).
 */
export function resolvePythonModules(items: ReadonlyArray<PythonModuleFile | undefined>, resolution: ModuleResolution): PythonModuleEntry[] {
  const { paths, defaults } = resolution;
  const entries = new Map<string, PythonModuleEntry>();
  items.forEach((item, index) => {
    if (item === undefined) return;
    const settings: Exclude<PythonModuleFile, string> = typeof item === "string" ? { path: item } : item;
    const at: JsonPath = typeof item === "string" ? [index] : [index, "path"];
    const written = settings.path.replace(/(?<=[^/])\/+$/, ""); // "analytics/" is the folder; "/" stays absolute
    const checked = checkScriptPath(paths, written);
    const isFolder = statSync(checked.absolute, { throwIfNoEntry: false })?.isDirectory() ?? false;
    if (checked.problem && !(isFolder && /^Expected a script file/.test(checked.problem.message))) {
      const message = checked.problem.warning ? `Python module not found: tools/${written} (its tools appear once it exists)` : checked.problem.message;
      resolution.report(at, message, checked.problem.warning);
      if (!checked.problem.warning) return;
    }
    if (!isFolder && !written.endsWith(".py")) {
      resolution.report(at, `Expected a .py file or a folder inside tools/, got ${JSON.stringify(settings.path)}`);
      return;
    }
    const cwd = checkCwd(paths, settings.cwd);
    if (cwd.problem) resolution.report([index, "cwd"], cwd.problem.message);
    const env = { ...defaults.env, ...resolution.resolveEnv(settings.env ?? {}, [index, "env"]) };
    const timeoutMs = settings.timeoutMs ?? defaults.timeoutMs;
    const memoryLimitMb = settings.memoryLimitMb ?? defaults.memoryLimitMb;
    const files = isFolder ? filesOfFolder(checked.absolute, written === "." ? "" : written) : [written];
    if (isFolder && files.length === 0) resolution.report(at, `tools/${written}/ holds no .py file to discover tools in`, true);
    for (const file of files) {
      const module = path.resolve(paths.toolsDir, file);
      if (entries.has(module)) continue;
      const pythonEnvironment = resolution.resolveEnvironment(settings, index, module);
      entries.set(module, {
        module,
        modulePath: file,
        interpreter: resolution.resolveInterpreter(settings.interpreter ?? defaults.python),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        parallel: settings.parallel ?? defaults.parallel ?? false,
        env,
        cwd: cwd.absolute,
        ...(memoryLimitMb === undefined ? {} : { memoryLimitMb }),
        ...(pythonEnvironment ? { pythonEnvironment } : {}),
      });
    }
  });
  return [...entries.values()];
}
