/**
 * One run on one runtime as the host follows it (run-on-runtime.ts starts it): its frames, its
 * deadline, its memory watchdog, its cancellation and the plugin's closing, and its one end.
 */
import { performance } from "node:perf_hooks";
import { ERROR_CODES, type ErrorCode } from "../../core/errors/error-codes.js";
import { CallDeadlines, type Deadlined } from "../../core/executor/call-deadlines.js";
import { type AbortWatcher, unwatchAbort, watchAbort } from "../../core/schedule/shared-abort-watch.js";
import { describeCatalogTool, searchCatalog, searchToolsRanked, type RankTools } from "./declarations/index.js";
import { MAX_ARGUMENT_NODES_FROM_CODE, MAX_NAME_LENGTH_FROM_CODE, MAX_QUERY_LENGTH_FROM_CODE, tooLong } from "./frame-limits.js";
import { unwatchMemory, watchMemory, type MemoryWatched } from "./memory-watch.js";
import { MEMORY_CHECK_INTERVAL_MS } from "./resident-memory.js";
import type { RunError, RunOutcome, RunRequest } from "./run-on-runtime.js";
import type { RuntimeExit, RuntimeFrame, RuntimeProcess } from "./runtime-process.js";
import type { RunListener } from "./runtime-runs.js";
import type { ToolCatalog } from "./tool-catalog.js";
import { envelopeJson } from "./tool-dispatch.js";

const MIB = 1024 * 1024;
const KNOWN_CODES = new Set<string>(ERROR_CODES);
const LOG_PREFIXES = new Map([
  ["log", ""],
  ["info", "[info] "],
  ["warn", "[warn] "],
  ["error", "[error] "],
  ["debug", "[debug] "],
]);

function exitError(exit: RuntimeExit, memoryLimitMb: number): RunError {
  if (/heap out of memory|Reached heap limit|Allocation failed/i.test(exit.stderr)) {
    return { code: "MEMORY_LIMIT", message: `The code ran out of memory (heap limit ${memoryLimitMb} MiB) and was stopped` };
  }
  const how = exit.signal ?? `exit code ${exit.code}`;
  return { code: "RUNTIME_ERROR", message: `The code's runtime stopped unexpectedly (${how})` };
}

/**
 * Answer to a `describe_tool` / `search_tools` frame, from the tools code may call. A refusal
 * (an over-long name or query, or the ranker's own `INVALID_INPUT`) is `{ error }`, which the
 * sandbox throws as a `ToolError`: the answers themselves are a string and an array.
 */
async function answerMeta(catalog: ToolCatalog, frame: RuntimeFrame, rankTools: RankTools | undefined): Promise<unknown> {
  if (frame.op === "describe_tool") {
    const name = String(frame.arg);
    const refusal = tooLong("tool name", name, MAX_NAME_LENGTH_FROM_CODE);
    return refusal ? { error: refusal } : describeCatalogTool(catalog.entries, name);
  }
  const { query, limit } = (frame.arg ?? {}) as { query?: unknown; limit?: unknown };
  const text = String(query ?? "");
  const refusal = tooLong("search query", text, MAX_QUERY_LENGTH_FROM_CODE);
  if (refusal) return { error: refusal };
  const count = typeof limit === "number" ? limit : undefined;
  // The catalog was listed once for this version of the registry: a search lists nothing again.
  if (!rankTools) return searchCatalog(catalog.entries, text, count);
  try {
    return await searchToolsRanked(catalog, rankTools, text, count);
  } catch (error) {
    const code = (error as { code?: unknown })?.code;
    if (code !== "INVALID_INPUT") throw error;
    return { error: { code, message: (error as Error).message } };
  }
}

/** The last limits sent, as they cross: a plugin's runs all share one limits object, so each run need not build its own. */
let lastLimits: RunRequest["limits"] | undefined;
let lastWireLimits: Record<string, number> | undefined;

function wireLimits(limits: RunRequest["limits"]): Record<string, number> {
  if (limits !== lastLimits) {
    // The runtime refuses arguments over the node limit before they cross: parsing 200,000 keys cost the host 0.2–0.7 s.
    lastWireLimits = { maxResultBytes: limits.maxResultBytes, maxLogBytes: limits.maxLogBytes, maxArgumentBytes: limits.maxArgumentBytes, maxArgumentNodes: MAX_ARGUMENT_NODES_FROM_CODE };
    lastLimits = limits;
  }
  return lastWireLimits!;
}

/** Every run's deadline on one timer (call-deadlines.ts), where each run had its own Timeout. */
const runDeadlines = new CallDeadlines();

/**
 * One run as the host follows it: a class whose methods are its listener (runtime-runs.ts), its
 * deadline (call-deadlines.ts), its memory watch and its closing watch, so a run makes one object
 * where it made a dozen closures and two timers.
 */
export class RuntimeRun implements RunListener, Deadlined, MemoryWatched, AbortWatcher {
  readonly run: number;
  readonly logs: string[] = [];
  private logBytes = 0;
  private logsDropped = false;
  private finished = false;
  private begun = false;
  private begunAt = 0;
  private readonly sentAt = Date.now();
  /** In `performance.now()` time, as the deadline list keeps it; the request's is wall-clock time. */
  readonly deadline: number;
  earlierDeadline: Deadlined | undefined = undefined;
  laterDeadline: Deadlined | undefined = undefined;
  listed = false;
  private stopWatching: (() => void) | undefined = undefined;
  private watchingStop = false;

  constructor(
    private readonly runtime: RuntimeProcess,
    private readonly request: RunRequest,
    private readonly settle: (outcome: RunOutcome) => void,
  ) {
    this.run = runtime.nextRun();
    this.deadline = performance.now() + Math.max(0, request.deadline - this.sentAt);
  }

  send(): void {
    const { runtime, request } = this;
    // The deadline counts queueing: a run still waiting behind another at its deadline never ran.
    runDeadlines.add(this);
    const { stopSignal } = request;
    if (stopSignal?.aborted) return this.signalAborted();
    this.stopWatching = request.cancellation.watch((reason) => this.abortedWith(reason));
    // Told at once when the call was already cancelled.
    if (this.finished) return this.stopWatching();
    if (stopSignal) {
      watchAbort(stopSignal, this);
      this.watchingStop = true;
    }
    if (!runtime.alive) return this.fail("RUNTIME_ERROR", "The code's runtime stopped before the code was sent");
    const { catalog } = request;
    const sameCatalog = runtime.catalogVersion === catalog.version;
    runtime.catalogVersion = catalog.version;
    const { limits } = request;
    const frame: Record<string, unknown> = {
      t: "run",
      x: this.run,
      source: request.prepared.source,
      columnEdits: request.prepared.columnEdits,
      lastLine: request.codeLines,
      // A run sent ahead whose deadline passes while it waits is dropped by the runtime rather than started.
      deadline: request.deadline,
      input: request.inputJson,
      limits: wireLimits(limits),
    };
    if (!sameCatalog) frame.catalog = { version: catalog.version, tools: catalog.pairs };
    const sent = runtime.sendRun(this.run, frame, this);
    if (sent === "started") this.started();
    else if (sent === "unsent") this.fail("RUNTIME_ERROR", "The code's runtime stopped before the code was sent");
  }

  private finish(result: RunOutcome["result"], reusable: boolean, notStarted = false): void {
    if (this.finished) return;
    this.finished = true;
    const { runtime, run, logs } = this;
    runDeadlines.remove(this);
    unwatchMemory(this);
    this.stopWatching?.();
    if (this.watchingStop) unwatchAbort(this.request.stopSignal!, this);
    runtime.detach(run);
    if (!reusable) runtime.kill();
    if (this.logsDropped) logs.push(`[toolexec] later log lines were dropped: the limit is ${this.request.limits.maxLogBytes} bytes per execution`);
    this.settle(notStarted ? { result, logs, reusable, run, notStarted } : { result, logs, reusable, run });
  }

  private fail(code: ErrorCode, message: string): void {
    this.finish({ ok: false, error: { code, message } }, false);
  }

  /** Not started, so the runtime is another run's: the run leaves it, and it lives on. */
  private withdraw(code: ErrorCode, message: string): void {
    this.runtime.withdraw(this.run);
    this.finish({ ok: false, error: { code, message } }, true);
  }

  private abortedWith(cause: unknown): void {
    const reason = cause as { code?: unknown; message?: unknown } | undefined;
    const code = typeof reason?.code === "string" && KNOWN_CODES.has(reason.code) ? (reason.code as ErrorCode) : "CANCELLED";
    if (this.begun) this.fail(code, typeof reason?.message === "string" ? reason.message : "The code execution was cancelled and stopped");
    else this.withdraw(code, "The code execution was cancelled before it started");
  }

  /** The plugin closed (its stop signal). */
  signalAborted(): void {
    this.abortedWith(this.request.stopSignal!.reason);
  }

  /** Its deadline passed (call-deadlines.ts). */
  expire(): void {
    if (this.begun) this.fail("TIMEOUT", `The code did not finish within ${this.request.timeoutMs} ms and was stopped`);
    else this.withdraw("TIMEOUT", `No code runtime became free within the deadline (waited ${Date.now() - this.sentAt} ms behind the run before it)`);
  }

  checkMemory(): void {
    // First checked one interval after it began, as with a timer of its own: most runs end sooner, unread.
    if (performance.now() - this.begunAt < MEMORY_CHECK_INTERVAL_MS) return;
    const { runtime } = this;
    const resident = runtime.residentBytes();
    if (resident !== undefined && resident - (runtime.baselineBytes ?? 0) > this.request.limits.memoryLimitMb * MIB) {
      this.fail("MEMORY_LIMIT", `The code used more than ${this.request.limits.memoryLimitMb} MiB of memory and was stopped`);
    }
  }

  /** The runtime started the run (at once, or after the run it was sent behind). */
  started(): void {
    this.begun = true;
    this.begunAt = performance.now();
    watchMemory(this);
  }

  dropped(): void {
    this.finish({ ok: false, error: { code: "RUNTIME_ERROR", message: "The run was withdrawn before it started" } }, true, true);
  }

  exited(exit: RuntimeExit, hadStarted: boolean): void {
    this.finish({ ok: false, error: exitError(exit, this.request.limits.memoryLimitMb) }, false, !hadStarted);
  }

  frame(frame: RuntimeFrame): void {
    try {
      if (frame.t === "log") this.onLog(frame);
      else if (frame.t === "call") this.onCall(frame);
      else if (frame.t === "meta" && typeof frame.c === "number") this.onMeta(frame, frame.c);
      else if (frame.t === "done") this.onDone(frame);
      else this.fail("RUNTIME_ERROR", `The code's runtime sent an unknown frame "${frame.t}"`);
    } catch (error) {
      this.fail("PLUGIN_FAILED", `The host failed while serving the code: ${(error as Error)?.message ?? String(error)}`);
    }
  }

  private onLog(frame: RuntimeFrame): void {
    if (frame.dropped === true) this.logsDropped = true;
    if (typeof frame.text !== "string" || this.logsDropped) return;
    const line = `${LOG_PREFIXES.get(String(frame.level)) ?? ""}${frame.text}`;
    if (this.logBytes + line.length > this.request.limits.maxLogBytes + 64) {
      this.logsDropped = true;
      return;
    }
    this.logBytes += line.length;
    this.logs.push(line);
  }

  private onCall(frame: RuntimeFrame): void {
    const call = frame.c;
    if (typeof call !== "number") return this.fail("RUNTIME_ERROR", "The code's runtime sent a malformed tool call");
    void this.request
      .dispatch(frame.target, frame.args)
      .catch((error: unknown) => ({ ok: false as const, error: { code: "PLUGIN_FAILED", message: `The host failed to run the call: ${(error as Error)?.message ?? String(error)}` } }))
      .then((envelope) => {
        if (this.finished) return;
        const json = envelopeJson(envelope);
        if (frame.sync === true) this.runtime.answer(call, json);
        else this.runtime.reply(call, json);
      });
  }

  private onMeta(frame: RuntimeFrame, call: number): void {
    void answerMeta(this.request.catalog, frame, this.request.rankTools).then(
      (value) => {
        if (!this.finished) this.runtime.answer(call, JSON.stringify(value));
      },
      (error: unknown) => this.fail("PLUGIN_FAILED", `The host failed while serving the code: ${(error as Error)?.message ?? String(error)}`),
    );
  }

  private onDone(frame: RuntimeFrame): void {
    if (frame.ok === true) return this.finish({ ok: true, value: frame.value ?? null }, true);
    const error = (frame.error ?? {}) as Record<string, unknown>;
    const code = typeof error.code === "string" && KNOWN_CODES.has(error.code) ? (error.code as ErrorCode) : "RUNTIME_ERROR";
    const message = typeof error.message === "string" ? error.message : "The code failed";
    this.finish({ ok: false, error: { code, message, ...(typeof error.stack === "string" ? { stack: error.stack } : {}) } }, true);
  }
}
