/**
 * Every file of the bad-config corpus is refused at start-up with a located ConfigError, in bounded
 * time and without a crash; and a running executor that sees it appear keeps its last good config.
 */
import { readFileSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { createExecutor, formatConfigIssue, isConfigError, type Executor, type ExecutorEvents } from "../../src/index.js";
import { loadProjectConfig } from "../../src/config.js";
import { createTempProject, type TempProject } from "../helpers/temp-project.js";
import { ACCEPTED_FILES, CORPUS, GOOD_MCP, GOOD_TOOLS, REFUSED_CASES, replaceFile, type CorpusCase } from "./corpus-cases.js";

const QUIET = { debug() {}, info() {}, warn() {}, error() {} };
/** Bound for refusing a case (a pathological file must not hang the loader); wide enough for both cores busy. */
const DEFAULT_DEADLINE_MS = 15_000;

/** A project with the good config and tools/echo.sh. */
function goodProject(): TempProject {
  const project = createTempProject({ tools: GOOD_TOOLS, mcp: GOOD_MCP });
  project.useFixtures("echo.sh");
  return project;
}

/** `promise`, or a failure naming `what` once `ms` pass: a hang fails the test instead of stalling it. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The temp folders' paths replaced by names, so the pinned messages are stable. */
function stable(text: string, project: TempProject, outside: TempProject): string {
  let result = text;
  for (const [folder, name] of [[outside.root, "<outside>"], [project.root, "<root>"]] as const) {
    result = result.split(realpathSync(folder)).join(name).split(folder).join(name);
  }
  return result.length > 600 ? `${result.slice(0, 600)}…` : result;
}

describe("bad-config corpus at start-up", () => {
  it("has at least 60 committed cases", () => {
    expect(REFUSED_CASES.filter((corpusCase) => !corpusCase.name.startsWith("generated/")).length).toBeGreaterThanOrEqual(60);
  });

  it.each(REFUSED_CASES.map((corpusCase) => [corpusCase.name, corpusCase] as const))("refuses %s", async (_name, corpusCase: CorpusCase) => {
    const project = goodProject();
    const outside = goodProject();
    corpusCase.apply(project, outside);
    const deadlineMs = corpusCase.deadlineMs ?? DEFAULT_DEADLINE_MS;
    const thrown: unknown = await within(
      createExecutor({ root: project.root, watch: false, logDir: false, logger: QUIET }).then(
        async (executor) => {
          await executor.close();
          return undefined;
        },
        (error: unknown) => error,
      ),
      deadlineMs,
      "createExecutor",
    );
    expect(isConfigError(thrown), `expected a ConfigError, got ${String(thrown)}`).toBe(true);
    if (!isConfigError(thrown)) return;
    expect(thrown.code).toBe("CONFIG_INVALID");
    expect(thrown.issues.length).toBeGreaterThan(0);
    for (const issue of thrown.issues) {
      expect(["tools.json", "mcp.json"]).toContain(issue.file);
      expect(typeof issue.path).toBe("string");
      expect(issue.line, formatConfigIssue(issue)).toBeGreaterThanOrEqual(1);
      expect(issue.column, formatConfigIssue(issue)).toBeGreaterThanOrEqual(1);
    }
    expect(new Set(thrown.issues.map((issue) => issue.file))).toEqual(new Set(corpusCase.faultyFiles));
    expect(stable(thrown.message, project, outside)).toMatchSnapshot();
  });

  it.each(ACCEPTED_FILES)("loads %s in bounded time", async (file) => {
    const project = goodProject();
    writeFileSync(project.path(file.endsWith(".mcp.json") ? "mcp.json" : "tools.json"), readFileSync(path.join(CORPUS, "accepted", file)));
    const config = await within(loadProjectConfig({ root: project.root }), DEFAULT_DEADLINE_MS, "loadProjectConfig");
    expect(config.entries.script.length + config.sections.mcp.length).toBeGreaterThan(0);
  });
});

/**
 * chokidar drops a change to a path within 50 ms of the change it last reported for that path,
 * and never reports it later (its `_throttle`). A config event comes after the change that caused
 * it, so a write 60 ms after the last event is never dropped. These tests are about the loader, not
 * that watcher gap (reported separately).
 */
const WATCHER_THROTTLE_MARGIN_MS = 60;

/** Shards run side by side, each on its own project and executor: the waits overlap. */
const SHARDS = 4;

function nextEvent<Name extends keyof ExecutorEvents>(executor: Executor, name: Name, withinMs: number): Promise<ExecutorEvents[Name]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`no ${name} within ${withinMs} ms`));
    }, withinMs);
    const unsubscribe = executor.on(name, (payload) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(payload);
    });
  });
}

/** Apply each case to a running executor, check it keeps serving, then restore the good config. */
async function runShard(cases: CorpusCase[]): Promise<void> {
  const project = goodProject();
  const outside = goodProject();
  const executor = await createExecutor({ root: project.root, watch: true, reloadDebounceMs: 10, logDir: false, logger: QUIET });
  let lastEventAt = 0;
  for (const name of ["config:error", "config:reloaded"] as const) executor.on(name, () => void (lastEventAt = Date.now()));
  const clearOfWatcherThrottle = async () => {
    const wait = lastEventAt + WATCHER_THROTTLE_MARGIN_MS - Date.now();
    if (wait > 0) await sleep(wait);
  };
  try {
    for (const corpusCase of cases) {
      await clearOfWatcherThrottle();
      const failed = nextEvent(executor, "config:error", corpusCase.deadlineMs ?? DEFAULT_DEADLINE_MS);
      const undo = corpusCase.apply(project, outside);
      const event = await failed.catch((error: Error) => {
        throw new Error(`${corpusCase.name}: ${error.message}`);
      });
      expect(event.error.code, corpusCase.name).toBe("CONFIG_INVALID");
      const result = await executor.callTool("echo", { case: corpusCase.name });
      if (corpusCase.refusesCalls) expect(result, corpusCase.name).toMatchObject({ ok: false, error: { code: "SCRIPT_NOT_ALLOWED" } });
      else expect(result, corpusCase.name).toMatchObject({ ok: true, value: { case: corpusCase.name } });

      // Back to the good config: the next case starts from it, and no stale event leaks into it.
      await clearOfWatcherThrottle();
      const reloaded = nextEvent(executor, "config:reloaded", DEFAULT_DEADLINE_MS);
      undo();
      replaceFile(project.path("mcp.json"), JSON.stringify(GOOD_MCP));
      replaceFile(project.path("tools.json"), JSON.stringify(GOOD_TOOLS));
      await reloaded.catch((error: Error) => {
        throw new Error(`${corpusCase.name} (restoring): ${error.message}`);
      });
    }
    expect(await executor.callTool("echo", { done: true })).toMatchObject({ ok: true, value: { done: true } });
  } finally {
    await executor.close();
  }
}

describe("bad-config corpus on a running executor", () => {
  it("keeps the last good config for every refused case, and takes the good one back after", { timeout: 180_000 }, async () => {
    const shards = Array.from({ length: SHARDS }, (_, shard) => REFUSED_CASES.filter((_, index) => index % SHARDS === shard));
    await Promise.all(shards.map(runShard));
  });
});
