/** Shared helpers for the script-tool tests: executors closed after each test, pids, process liveness. */
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach } from "vitest";
import { createExecutor, type Executor, type ExecutorOptions, type Logger } from "../../src/index.js";
import { createTempProject, toolEntry, type TempProject } from "../helpers/temp-project.js";

export { createTempProject, toolEntry, type TempProject };

const open: Executor[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((executor) => executor.close()));
});

/** A logger that keeps what it is told, so tests stay quiet and can check warnings. */
export function createMemoryLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    warnings,
    debug() {},
    info() {},
    warn: (message) => void warnings.push(message),
    error: (message) => void warnings.push(message),
  };
}

/** An executor on `project` without watcher or log files, closed after the test. */
export async function startExecutor(project: TempProject, options: ExecutorOptions = {}): Promise<Executor> {
  const executor = await createExecutor({ root: project.root, watch: false, logDir: false, logger: createMemoryLogger(), ...options });
  open.push(executor);
  return executor;
}

/** A project whose tools.json holds `tools`, with the named fixtures copied into tools/. */
export function projectWith(tools: object[], fixtures: string[], defaults?: object): TempProject {
  const project = createTempProject({ tools: defaults === undefined ? { tools } : { defaults, tools } });
  project.useFixtures(...fixtures);
  return project;
}

/** Read a pid a fixture wrote under the project root, waiting briefly for it to be written. */
export const readPid = (project: TempProject, file: string, waitMs = 10_000): Promise<number> => waitForPid(project.path(file), waitMs);

export { isRunning } from "../helpers/processes.js";
import { isRunning, waitForPid } from "../helpers/processes.js";

/**
 * Resolves once none of `pids` runs; rejects naming the survivors after `withinMs`. A killed process
 * still needs the CPU to exit, so the bound leaves room for a busy machine; the survivors it catches
 * would run for a minute.
 */
export async function expectAllGone(pids: number[], withinMs = 2_000): Promise<void> {
  const until = Date.now() + withinMs;
  for (;;) {
    const alive = pids.filter(isRunning);
    if (alive.length === 0) return;
    if (Date.now() >= until) throw new Error(`Processes still running ${withinMs} ms later: ${alive.join(", ")}`);
    await sleep(10);
  }
}

/** Kill a process the code under test was not expected to reach (cleanup after a test). */
export function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** Replace the temp root and execution ids in text so inline snapshots are stable. */
export function stable(text: string, project: TempProject, executionId?: string): string {
  let result = text.split(project.root).join("<root>");
  if (executionId) result = result.split(executionId).join("<execution-id>");
  return result;
}

/** Milliseconds since `start` (from `performance.now()`). */
export const since = (start: number) => performance.now() - start;
