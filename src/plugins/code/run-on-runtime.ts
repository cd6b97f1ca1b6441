/**
 * One run on one runtime, from the host's side: send the request, serve its tool calls and
 * discovery questions, collect its logs, and end it exactly once, whichever comes first: its
 * result, the deadline (the runtime is killed: `TIMEOUT`), the memory watchdog (`MEMORY_LIMIT`),
 * the caller's abort, or the runtime's death. A run sent ahead waits in its runtime behind
 * another caller's run until it starts: its deadline or abort then withdraws it (the runtime
 * drops it and lives on), the runtime's death or a drop the pool asked for leaves it `notStarted`.
 */
import { ERROR_CODES, type ErrorCode } from "../../core/errors/error-codes.js";
import { describeCatalogTool, searchCatalog, searchToolsRanked, type RankTools } from "./declarations/index.js";
import { MAX_ARGUMENT_NODES_FROM_CODE, MAX_NAME_LENGTH_FROM_CODE, MAX_QUERY_LENGTH_FROM_CODE, tooLong } from "./frame-limits.js";
import type { PreparedSource } from "./prepare-source.js";
import { MEMORY_CHECK_INTERVAL_MS } from "./resident-memory.js";
import type { RuntimeExit, RuntimeFrame, RuntimeProcess } from "./runtime-process.js";
import type { RunListener } from "./runtime-runs.js";
import { watchSharedAbort } from "../../core/schedule/shared-abort-watch.js";
import type { ToolCatalog } from "./tool-catalog.js";
import type { Cancellation } from "./call-cancellation.js";
import { envelopeJson, type SandboxEnvelope } from "./tool-dispatch.js";

const MIB = 1024 * 1024;
const KNOWN_CODES = new Set<string>(ERROR_CODES);
const LOG_PREFIXES = new Map([
  ["log", ""],
  ["info", "[info] "],
  ["warn", "[warn] "],
  ["error", "[error] "],
  ["debug", "[debug] "],
]);

export interface RunLimits {
  maxResultBytes: number;
  maxLogBytes: number;
  maxArgumentBytes: number;
  memoryLimitMb: number;
}

export interface RunRequest {
  prepared: PreparedSource;
  /** Lines of the submitted code: frames below them are the wrapper's. */
  codeLines: number;
  inputJson: string;
  deadline: number;
  timeoutMs: number;
  /** The call's cancellation (call-cancellation.ts): it kills the runtime. */
  cancellation: Pick<Cancellation, "watch">;
  /** The plugin's own: aborted when it closes. */
  stopSignal?: AbortSignal;
  catalog: ToolCatalog;
  /** The executor's ranking, for `search_tools`; without it, word matching over the catalog. */
  rankTools?: RankTools;
  /** Run one tool call the code asked for (tool-dispatch.ts). */
  dispatch(target: unknown, args: unknown): Promise<SandboxEnvelope>;
  limits: RunLimits;
}

export type RunError = { code: ErrorCode; message: string; stack?: string };

export interface RunOutcome {
  result: { ok: true; value: unknown } | { ok: false; error: RunError };
  logs: string[];
  /** False when the runtime was killed or broke: it must not go back to the pool. */
  reusable: boolean;
  /** The run's sequence number in its runtime (for the idle handshake). */
  run: number;
  /**
   * The run never started: it was sent ahead of another run (or of that run's idle report) and
   * the runtime died first, or dropped it when the pool asked (RuntimePool). Nothing of it ran;
   * it may run elsewhere.
   */
  notStarted?: true;
}

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

/**
 * Run `request` on `runtime` (already acquired and ready). Never rejects.
 *
 * @example
 * const outcome = await runOnRuntime(runtime, request);
 * if (outcome.reusable) pool.release(runtime, outcome.run);
 */
export function runOnRuntime(runtime: RuntimeProcess, request: RunRequest): Promise<RunOutcome> {
  const run = runtime.nextRun();
  const logs: string[] = [];
  let logBytes = 0;
  let logsDropped = false;

  return new Promise<RunOutcome>((resolve) => {
    let finished = false;
    let started = false;
    let memoryTimer: NodeJS.Timeout | undefined;
    const sentAt = Date.now();
    const finish = (result: RunOutcome["result"], reusable: boolean, notStarted = false) => {
      if (finished) return;
      finished = true;
      clearTimeout(deadlineTimer);
      clearInterval(memoryTimer);
      stopWatching?.();
      stopClosing?.();
      runtime.detach(run);
      if (!reusable) runtime.kill();
      if (logsDropped) logs.push(`[toolexec] later log lines were dropped: the limit is ${request.limits.maxLogBytes} bytes per execution`);
      resolve(notStarted ? { result, logs, reusable, run, notStarted } : { result, logs, reusable, run });
    };
    const fail = (code: ErrorCode, message: string) => finish({ ok: false, error: { code, message } }, false);
    // Not started, so the runtime is another run's: the run leaves it, and it lives on.
    const withdraw = (code: ErrorCode, message: string) => {
      runtime.withdraw(run);
      finish({ ok: false, error: { code, message } }, true);
    };

    let stopWatching: (() => void) | undefined;
    let stopClosing: (() => void) | undefined;
    const onStop = () => abortedWith(request.stopSignal!.reason);
    const abortedWith = (cause: unknown) => {
      const reason = cause as { code?: unknown; message?: unknown } | undefined;
      const code = typeof reason?.code === "string" && KNOWN_CODES.has(reason.code) ? (reason.code as ErrorCode) : "CANCELLED";
      if (started) fail(code, typeof reason?.message === "string" ? reason.message : "The code execution was cancelled and stopped");
      else withdraw(code, "The code execution was cancelled before it started");
    };
    // The deadline counts queueing: a run still waiting behind another at its deadline never ran.
    const deadlineTimer = setTimeout(() => {
      if (started) fail("TIMEOUT", `The code did not finish within ${request.timeoutMs} ms and was stopped`);
      else withdraw("TIMEOUT", `No code runtime became free within the deadline (waited ${Date.now() - sentAt} ms behind the run before it)`);
    }, Math.max(0, request.deadline - Date.now()));
    const memoryLimitBytes = request.limits.memoryLimitMb * MIB;
    const begin = () => {
      started = true;
      memoryTimer = setInterval(() => {
        const resident = runtime.residentBytes();
        if (resident !== undefined && resident - (runtime.baselineBytes ?? 0) > memoryLimitBytes) {
          fail("MEMORY_LIMIT", `The code used more than ${request.limits.memoryLimitMb} MiB of memory and was stopped`);
        }
      }, MEMORY_CHECK_INTERVAL_MS);
      memoryTimer.unref();
    };
    if (request.stopSignal?.aborted) return onStop();
    stopWatching = request.cancellation.watch(abortedWith);
    // Told at once when the call was already cancelled.
    if (finished) return stopWatching();
    if (request.stopSignal) stopClosing = watchSharedAbort(request.stopSignal, onStop);
    if (!runtime.alive) return fail("RUNTIME_ERROR", "The code's runtime stopped before the code was sent");

    const onLog = (frame: RuntimeFrame) => {
      if (frame.dropped === true) logsDropped = true;
      if (typeof frame.text !== "string" || logsDropped) return;
      const line = `${LOG_PREFIXES.get(String(frame.level)) ?? ""}${frame.text}`;
      if (logBytes + line.length > request.limits.maxLogBytes + 64) {
        logsDropped = true;
        return;
      }
      logBytes += line.length;
      logs.push(line);
    };

    const onCall = (frame: RuntimeFrame) => {
      const call = frame.c;
      if (typeof call !== "number") return fail("RUNTIME_ERROR", "The code's runtime sent a malformed tool call");
      void request
        .dispatch(frame.target, frame.args)
        .catch((error: unknown) => ({ ok: false as const, error: { code: "PLUGIN_FAILED", message: `The host failed to run the call: ${(error as Error)?.message ?? String(error)}` } }))
        .then((envelope) => {
          if (finished) return;
          const json = envelopeJson(envelope);
          if (frame.sync === true) runtime.answer(call, json);
          else runtime.reply(call, json);
        });
    };

    const onMeta = (frame: RuntimeFrame, call: number) => {
      void answerMeta(request.catalog, frame, request.rankTools).then(
        (value) => {
          if (!finished) runtime.answer(call, JSON.stringify(value));
        },
        (error: unknown) => fail("PLUGIN_FAILED", `The host failed while serving the code: ${(error as Error)?.message ?? String(error)}`),
      );
    };

    const onDone = (frame: RuntimeFrame) => {
      if (frame.ok === true) return finish({ ok: true, value: frame.value ?? null }, true);
      const error = (frame.error ?? {}) as Record<string, unknown>;
      const code = typeof error.code === "string" && KNOWN_CODES.has(error.code) ? (error.code as ErrorCode) : "RUNTIME_ERROR";
      const message = typeof error.message === "string" ? error.message : "The code failed";
      finish({ ok: false, error: { code, message, ...(typeof error.stack === "string" ? { stack: error.stack } : {}) } }, true);
    };

    const onFrame = (frame: RuntimeFrame) => {
      try {
        if (frame.t === "log") onLog(frame);
        else if (frame.t === "call") onCall(frame);
        else if (frame.t === "meta" && typeof frame.c === "number") onMeta(frame, frame.c);
        else if (frame.t === "done") onDone(frame);
        else fail("RUNTIME_ERROR", `The code's runtime sent an unknown frame "${frame.t}"`);
      } catch (error) {
        fail("PLUGIN_FAILED", `The host failed while serving the code: ${(error as Error)?.message ?? String(error)}`);
      }
    };

    const catalog = runtime.catalogVersion === request.catalog.version ? {} : { catalog: { version: request.catalog.version, tools: request.catalog.pairs } };
    runtime.catalogVersion = request.catalog.version;
    const listener: RunListener = {
      frame: onFrame,
      started: begin,
      dropped: () => finish({ ok: false, error: { code: "RUNTIME_ERROR", message: "The run was withdrawn before it started" } }, true, true),
      exited: (exit, hadStarted) => finish({ ok: false, error: exitError(exit, request.limits.memoryLimitMb) }, false, !hadStarted),
    };
    const sent = runtime.sendRun(run, {
      t: "run",
      x: run,
      source: request.prepared.source,
      columnEdits: request.prepared.columnEdits,
      lastLine: request.codeLines,
      // A run sent ahead whose deadline passes while it waits is dropped by the runtime rather than started.
      deadline: request.deadline,
      input: request.inputJson,
      // The runtime refuses arguments over the node limit before they cross: parsing 200,000 keys cost the host 0.2–0.7 s.
      limits: { maxResultBytes: request.limits.maxResultBytes, maxLogBytes: request.limits.maxLogBytes, maxArgumentBytes: request.limits.maxArgumentBytes, maxArgumentNodes: MAX_ARGUMENT_NODES_FROM_CODE },
      ...catalog,
    }, listener);
    if (sent === "started") begin();
    else if (sent === "unsent") fail("RUNTIME_ERROR", "The code's runtime stopped before the code was sent");
  });
}
