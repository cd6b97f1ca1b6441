/** Shared helpers for the python plugin's tests: projects with fixture modules, executors closed after each test. */
import { copyFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach } from "vitest";
import { createExecutor, type Executor, type ExecutorOptions, type Logger } from "../../src/index.js";
import { waitForPid } from "../helpers/processes.js";
import { createTempProject, type TempProject } from "../helpers/temp-project.js";

export const PYTHON_FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "python");

const open: Executor[] = [];
const openForFile: Executor[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((executor) => executor.close()));
});
afterAll(async () => {
  await Promise.all(openForFile.splice(0).map((executor) => executor.close()));
});

export function createMemoryLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, debug() {}, info() {}, warn: (message) => void warnings.push(message), error: (message) => void warnings.push(message) };
}

/** A project whose tools.json holds `tools`, with every fixture module copied into tools/. */
export function pythonProject(tools: object[], sharedByFile = false): TempProject {
  const project = createTempProject({ tools: { tools }, sharedByFile });
  for (const name of readdirSync(PYTHON_FIXTURES)) if (name.endsWith(".py")) copyFileSync(path.join(PYTHON_FIXTURES, name), project.path(`tools/${name}`));
  return project;
}

/** A project like `pythonProject`, whose tools.json also lists `pythonModules` to discover tools in. */
export function discoveringProject(pythonModules: unknown[], tools: object[] = []): TempProject {
  const project = pythonProject([]);
  project.write("tools.json", { tools, pythonModules });
  return project;
}

/** One function entry per name of text_tools.py (tool name = function name). */
export function textTools(...names: string[]): object[] {
  return names.map((name) => ({ name, function: `text_tools.py:${name}` }));
}

/** An executor on `project` without watcher or log files, closed after the test (or the file's tests). */
export async function startExecutor(project: TempProject, options: ExecutorOptions = {}, sharedByFile = false): Promise<Executor> {
  const executor = await createExecutor({ root: project.root, watch: false, logDir: false, logger: createMemoryLogger(), ...options });
  (sharedByFile ? openForFile : open).push(executor);
  return executor;
}

export { childPids } from "../helpers/processes.js";

/** The pid a tool wrote into `file`: its own "I have started" signal, never a sleep (a worker may take a while to start on a busy machine). */
export const startedPid = (file: string): Promise<number> => waitForPid(file, 30_000);

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
