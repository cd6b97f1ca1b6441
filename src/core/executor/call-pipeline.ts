/**
 * The one path every call takes, from the host, the CLI or a plugin: resolve → validate input →
 * schedule → plugin call under deadline and signal → validate output → envelope → log → events.
 */
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { MAX_TIMEOUT_MS } from "../config/tools-config-schema.js";
import { closestMatch, describeValue } from "../config/describe-value.js";
import { ToolexecError, isToolexecError } from "../errors/toolexec-error.js";
import type { Emitter } from "../events.js";
import type { ExecutionLog } from "../log/execution-log.js";
import type { CallToolOptions, PluginResult, ToolErrorInfo } from "../plugin-contract.js";
import type { Scheduler } from "../schedule/scheduler.js";
import { formatSchemaProblems } from "../schema/schema-validator.js";
import { toolError, type ToolResult } from "../tool-result.js";
import type { ExecutorEvents } from "./executor-events.js";
import type { PluginHost, RegisteredTool } from "./plugin-host.js";

/** After the deadline or a cancel, how long a plugin gets to answer with its own details. */
export const ABORT_GRACE_MS = 50;

export interface PipelineDependencies {
  host: PluginHost;
  scheduler: Scheduler;
  emitter: Emitter<ExecutorEvents>;
  log: ExecutionLog | undefined;
  defaultTimeoutMs: number;
  isClosed(): boolean;
  /** Controllers of calls under way, aborted by `close()`. */
  inflight: Set<AbortController>;
  /**
   * Tools that take no slot of the global concurrency limit because they limit themselves and
   * call other tools (code_execution: its runtime pool bounds it, and its sub-calls take slots;
   * holding one would let a few runs starve their own sub-calls).
   */
  isSelfScheduled?(tool: RegisteredTool): boolean;
  /** Reshape a call's log record before it is written (code runs log code excerpts, not arguments). */
  shapeLogRecord?(record: Record<string, unknown>): Record<string, unknown>;
  /** Extra words for TOOL_NOT_FOUND about a name that is known but switched off (code_execution). */
  missingToolHint?(name: string): string | undefined;
}

export type CallTool = (name: string, args?: unknown, options?: CallToolOptions) => Promise<ToolResult>;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value) && [Object.prototype, null].includes(Object.getPrototypeOf(value));

function checkResultShape(result: unknown, plugin: string): PluginResult {
  const candidate = result as { ok?: unknown; error?: { code?: unknown; message?: unknown } } | null;
  if (candidate?.ok === true) return candidate as PluginResult;
  if (candidate?.ok === false && typeof candidate.error?.code === "string" && typeof candidate.error.message === "string") return candidate as PluginResult;
  return toolError("PLUGIN_FAILED", `Plugin "${plugin}" returned a malformed result: expected { ok: true, value } or { ok: false, error: { code, message } }`);
}

/** The plugin's answer, or — once the signal aborts and a short grace passes — the abort's own. */
function raceWithAbort(work: Promise<PluginResult>, signal: AbortSignal): Promise<PluginResult> {
  let onAbort: (() => void) | undefined;
  let graceTimer: NodeJS.Timeout | undefined;
  const aborted = new Promise<PluginResult>((resolve) => {
    onAbort = () => {
      const reason = signal.reason as ToolexecError;
      graceTimer = setTimeout(() => resolve(toolError(reason.code, reason.message)), ABORT_GRACE_MS);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([work, aborted]).finally(() => {
    signal.removeEventListener("abort", onAbort!);
    clearTimeout(graceTimer);
  });
}

export function createCallPipeline(dependencies: PipelineDependencies): CallTool {
  const { host, scheduler, emitter, log } = dependencies;

  return async function callTool(name, args, options = {}) {
    if (dependencies.isClosed()) throw new ToolexecError("EXECUTOR_CLOSED", `Cannot call "${name}": the executor is closed`);
    const executionId = randomUUID();
    const startedAt = Date.now();
    const started = performance.now();
    const parent = options.parentExecutionId === undefined ? {} : { parentExecutionId: options.parentExecutionId };
    let registered: RegisteredTool | undefined;
    let callArguments: Record<string, unknown> | undefined;
    let timeoutMs: number | undefined;

    const finish = (outcome: PluginResult): ToolResult => {
      const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
      const result: ToolResult = outcome.ok
        ? { ok: true, value: outcome.value, ...(outcome.content === undefined ? {} : { content: outcome.content }), executionId, tool: name, durationMs }
        : { ok: false, error: outcome.error, executionId, tool: name, durationMs };
      if (log) {
        const record = {
          time: new Date(startedAt).toISOString(),
          executionId,
          ...parent,
          tool: name,
          plugin: registered?.owner.name ?? null,
          arguments: callArguments ?? args ?? null,
          ok: result.ok,
          ...(result.ok ? { value: result.value } : { error: result.error }),
          durationMs,
          ...(timeoutMs === undefined ? {} : { timeoutMs }),
        };
        let shaped: Record<string, unknown> = record;
        try {
          shaped = dependencies.shapeLogRecord?.(record) ?? record;
        } catch {
          shaped = record;
        }
        log.write(shaped, host.secrets());
      }
      emitter.emit("tool:end", { ...result, ...parent });
      if (!result.ok) emitter.emit("tool:error", { ...result, ...parent });
      return result;
    };

    if (options.timeoutMs !== undefined && !(Number.isInteger(options.timeoutMs) && options.timeoutMs > 0 && options.timeoutMs <= MAX_TIMEOUT_MS)) {
      return finish(toolError("INVALID_OPTIONS", `Expected timeoutMs to be a whole number of ms from 1 to ${MAX_TIMEOUT_MS}, got ${describeValue(options.timeoutMs)}`));
    }
    registered = host.tools.get(name);
    if (!registered) {
      const switchedOff = dependencies.missingToolHint?.(name);
      if (switchedOff !== undefined) return finish(toolError("TOOL_NOT_FOUND", switchedOff, { available: [...host.tools.keys()] }));
      const hint = closestMatch(name, host.tools.keys());
      return finish(toolError("TOOL_NOT_FOUND", `No tool named "${name}"${hint ? `; did you mean "${hint}"?` : ""}`, { available: [...host.tools.keys()] }));
    }
    const { definition, owner } = registered;

    if (args === undefined || args === null) {
      callArguments = {};
    } else if (!isPlainObject(args)) {
      const kind = typeof args === "object" && !Array.isArray(args) ? `a ${(args as object).constructor?.name ?? "non-plain object"}` : describeValue(args);
      return finish(toolError("INVALID_INPUT", `Expected the arguments of "${name}" to be a plain object, got ${kind}`));
    } else {
      try {
        // A JSON round trip: rejects what cannot cross to a tool and snapshots the caller's object.
        callArguments = JSON.parse(JSON.stringify(args)) as Record<string, unknown>;
      } catch (error) {
        return finish(toolError("INVALID_INPUT", `The arguments of "${name}" are not JSON-serializable: ${(error as Error).message}`));
      }
    }
    const problems = registered.validateInput(callArguments);
    if (problems.length > 0) {
      return finish(toolError("INVALID_INPUT", `Invalid arguments for "${name}": ${formatSchemaProblems(problems)}`, { problems }));
    }

    timeoutMs = options.timeoutMs ?? definition.timeoutMs ?? dependencies.defaultTimeoutMs;
    const deadline = startedAt + timeoutMs;
    const controller = new AbortController();
    const budget = timeoutMs;
    const timer = setTimeout(() => controller.abort(new ToolexecError("TIMEOUT", `"${name}" did not finish within ${budget} ms`)), timeoutMs);
    const onCallerAbort = () => controller.abort(new ToolexecError("CANCELLED", `"${name}" was cancelled by the caller`));
    if (options.signal?.aborted) controller.abort(new ToolexecError("CANCELLED", `"${name}" was cancelled before it started`));
    else options.signal?.addEventListener("abort", onCallerAbort, { once: true });
    dependencies.inflight.add(controller);
    host.enter(owner);
    emitter.emit("tool:start", { executionId, tool: name, arguments: callArguments, ...parent });

    let outcome: PluginResult;
    try {
      let release: (() => void) | undefined;
      try {
        // A call cancelled before it began takes no slot and never reaches the plugin.
        if (controller.signal.aborted) throw controller.signal.reason;
        release = dependencies.isSelfScheduled?.(registered) ? () => {} : await scheduler.acquire(name, definition.parallel ?? false, controller.signal);
      } catch (error) {
        const fault = isToolexecError(error) ? error : new ToolexecError("CANCELLED", String(error));
        outcome = toolError(fault.code, fault.message, fault.details);
      }
      if (release) {
        try {
          const work = Promise.resolve()
            .then(() =>
              owner.instance.callTool(
                { name, arguments: callArguments, executionId },
                { signal: controller.signal, deadline, onProgress: (progress) => emitter.emit("tool:progress", { executionId, tool: name, ...progress, ...parent }) },
              ),
            )
            .then(
              (result) => checkResultShape(result, owner.name),
              (error: unknown) => toolError("PLUGIN_FAILED", `Plugin "${owner.name}" threw while calling "${name}": ${(error as Error)?.message ?? String(error)}`),
            );
          outcome = await raceWithAbort(work, controller.signal);
        } finally {
          release();
        }
      }
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onCallerAbort);
      dependencies.inflight.delete(controller);
      host.leave(owner);
    }
    outcome = outcome!;

    if (outcome.ok && registered.validateOutput) {
      const outputProblems = registered.validateOutput(outcome.value);
      if (outputProblems.length > 0) {
        const message = `The result of "${name}" does not match its outputSchema: ${formatSchemaProblems(outputProblems).replace(/\barguments\b/g, "result")}`;
        return finish(toolError("INVALID_OUTPUT", message, { problems: outputProblems }));
      }
    }
    if (!outcome.ok && outcome.error.code === "TIMEOUT") {
      outcome = { ok: false, error: { ...outcome.error, details: { timeoutMs, ...outcome.error.details } } satisfies ToolErrorInfo };
    }
    return finish(outcome);
  };
}
