/**
 * The one path every call takes, from the host, the CLI or a plugin: resolve → snapshot and
 * validate input → schedule → plugin call under deadline and signal → validate output → envelope →
 * log → events. The pipeline owns call tracking: `close()` aborts every call under way through it
 * and waits for all of them to settle (their log records written).
 */
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { closestMatch, describeValue } from "../json/describe-value.js";
import { ToolexecError, isToolexecError } from "../errors/toolexec-error.js";
import type { Emitter } from "../events.js";
import type { ExecutionLog } from "../log/execution-log.js";
import type { CallerInfo, CallToolOptions, ExecutionRecord, PluginCallOptions, PluginResult, ToolErrorInfo, ToolProgress } from "../plugin-contract.js";
import type { Scheduler } from "../schedule/scheduler.js";
import { createFifoSemaphore, type FifoSemaphore } from "../schedule/fifo-semaphore.js";
import { formatSchemaProblems, type CompiledValidator } from "../schema/schema-validator.js";
import { MAX_TOOL_NAME_LENGTH } from "../tool-names.js";
import { toolError, type ToolResult } from "../tool-result.js";
import { displayName, readCallOptions, snapshotArguments } from "./call-input.js";
import { RunningCall } from "./running-call.js";
import type { ExecutorEvents } from "./executor-events.js";
import type { PluginHost, RegisteredTool } from "./plugin-host.js";

export { ABORT_GRACE_MS } from "./running-call.js";

/** How many tool names a `TOOL_NOT_FOUND` result lists in `details.available` at most. */
const MAX_NAMED_TOOLS = 100;

export interface PipelineDependencies {
  host: PluginHost;
  scheduler: Scheduler;
  emitter: Emitter<ExecutorEvents>;
  log: ExecutionLog | undefined;
  defaultTimeoutMs: number;
  /** Why a name is not in the registry when it is known but switched off (e.g. code_execution). */
  unavailableToolHint?(name: string): string | undefined;
}

export type CallTool = (name: string, args?: unknown, options?: CallToolOptions) => Promise<ToolResult>;

export interface CallPipeline {
  callTool: CallTool;
  /** What a call of `name` would answer for want of that tool, without calling; undefined when it is registered. */
  explainMissing(name: string): ToolErrorInfo | undefined;
  /** Refuse new calls (`EXECUTOR_CLOSED`), abort every call under way with `reason`, and wait until all have settled. */
  closeAll(reason: ToolexecError): Promise<void>;
}

/** A validator, or the reason it could not be compiled (the schema passed its meta-schema check). */
function validatorOf(get: () => CompiledValidator | undefined): CompiledValidator | undefined | { failure: string } {
  try {
    return get();
  } catch (error) {
    return { failure: (error as Error).message };
  }
}

export function createCallPipeline(dependencies: PipelineDependencies): CallPipeline {
  const { host, scheduler, emitter, log } = dependencies;
  const calls = new Map<string, RunningCall>();
  let closedWith: ToolexecError | undefined;

  /** Envelope, log record and events: the end of every call, whatever happened. */
  const finish = (
    outcome: PluginResult,
    call: { name: string; args: unknown; executionId: string; startedAt: number; started: number; parentExecutionId: string | undefined; registered?: RegisteredTool; timeoutMs?: number; caller?: CallerInfo },
  ): ToolResult => {
    const { name, executionId, parentExecutionId } = call;
    const durationMs = Math.round((performance.now() - call.started) * 1000) / 1000;
    const result: ToolResult = outcome.ok
      ? {
          ok: true,
          value: outcome.value,
          ...(outcome.content === undefined ? {} : { content: outcome.content }),
          ...(outcome.warnings?.length ? { warnings: outcome.warnings } : {}),
          executionId,
          tool: name,
          durationMs,
        }
      : { ok: false, error: outcome.error, executionId, tool: name, durationMs };
    if (log) {
      const record: ExecutionRecord = {
        time: new Date(call.startedAt).toISOString(),
        executionId,
        ...(parentExecutionId === undefined ? {} : { parentExecutionId }),
        tool: name,
        plugin: call.registered?.owner.name ?? null,
        arguments: call.args ?? null,
        ok: result.ok,
        ...(result.ok ? { value: result.value, ...(result.warnings ? { warnings: result.warnings } : {}) } : { error: result.error }),
        durationMs,
        ...(call.timeoutMs === undefined ? {} : { timeoutMs: call.timeoutMs }),
        ...(call.caller === undefined ? {} : { caller: { name: call.caller.name, version: call.caller.version, sessionId: call.caller.sessionId } }),
      };
      let shaped: Record<string, unknown> = record;
      // The owner is the instance that ran the call, even when the executor has closed it since.
      const shape = call.registered?.owner.instance.shapeLogRecord;
      if (shape) {
        try {
          shaped = shape.call(call.registered!.owner.instance, record);
        } catch {
          shaped = record;
        }
      }
      log.write(shaped, host.secrets());
    }
    // Payloads are built only for events someone listens to: most hosts listen to few.
    const ending = emitter.hasListeners("tool:end");
    const failing = !result.ok && emitter.hasListeners("tool:error");
    if (ending || failing) {
      const event = parentExecutionId === undefined ? result : { ...result, parentExecutionId };
      if (ending) emitter.emit("tool:end", event);
      if (failing) emitter.emit("tool:error", event as ToolResult & { ok: false });
    }
    return result;
  };

  const notFound = (name: string): PluginResult => {
    // Large registries are named in part: an error result stays small whatever the registry's size.
    const names = [...host.tools.keys()];
    const available = names.length <= MAX_NAMED_TOOLS ? names : [...names.slice(0, MAX_NAMED_TOOLS), `… and ${names.length - MAX_NAMED_TOOLS} more`];
    const switchedOff = dependencies.unavailableToolHint?.(name);
    if (switchedOff !== undefined) return toolError("TOOL_NOT_FOUND", switchedOff, { available });
    // No tool has a longer name, and the edit distance costs name length × registry size: a 100 KB
    // name blocked the event loop 3.3 s against 200 tools. Such a name is cut in the message too.
    if (name.length > MAX_TOOL_NAME_LENGTH) return toolError("TOOL_NOT_FOUND", `No tool named ${describeValue(name)}: names are at most ${MAX_TOOL_NAME_LENGTH} characters`, { available });
    for (const instance of host.instances()) {
      let explained: ToolErrorInfo | undefined;
      try {
        explained = instance.explainMissingTool?.(name);
      } catch {
        explained = undefined;
      }
      if (explained !== undefined) return { ok: false, error: explained };
    }
    const hint = closestMatch(name, host.tools.keys());
    return toolError("TOOL_NOT_FOUND", `No tool named "${name}"${hint ? `; did you mean "${hint}"?` : ""}`, { available });
  };

  /**
   * Ask the plugins that can to make a missing tool available within the call's time (its timeout
   * and cancel); true once one did. Names no plugin claims cost only the asking.
   */
  const resolveMissing = async (name: string, options: CallToolOptions): Promise<boolean> => {
    if (name.length > MAX_TOOL_NAME_LENGTH) return false;
    const resolvers = host.instances().filter((instance) => instance.resolveMissingTool);
    if (resolvers.length === 0) return false;
    const timeout = AbortSignal.timeout(options.timeoutMs ?? dependencies.defaultTimeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    // A resolver that ignores the signal is not waited for past it.
    const stopped = new Promise<false>((resolve) => (signal.aborted ? resolve(false) : signal.addEventListener("abort", () => resolve(false), { once: true })));
    for (const instance of resolvers) {
      try {
        if (await Promise.race([instance.resolveMissingTool!(name, { signal }), stopped])) return true;
      } catch {
        // A throwing resolver is a tool that stays missing.
      }
      if (signal.aborted) return false;
    }
    return false;
  };

  /**
   * Wait for a turn; a sub-call of a call that holds a slot may borrow that slot instead of waiting.
   * A free turn is taken without a promise (the common case): the release function, else a promise of it.
   */
  const schedule = (registered: RegisteredTool, name: string, running: RunningCall, parent: RunningCall | undefined): (() => void) | Promise<() => void> => {
    if (running.signal.aborted) throw running.signal.reason;
    if (registered.definition.selfScheduled) return () => {};
    const parallel = registered.definition.parallel ?? false;
    const holding = (release: () => void) => {
      running.holdsSlot = true;
      return () => {
        running.holdsSlot = false;
        release();
      };
    };
    const free = scheduler.tryAcquire(name, parallel);
    if (free) return holding(free);
    let lender: FifoSemaphore | undefined;
    if (parent?.holdsSlot) lender = parent.lentSlot ??= createFifoSemaphore(1);
    return scheduler.acquire(name, parallel, running.signal, lender).then(holding);
  };

  const invoke = (
    registered: RegisteredTool,
    name: string,
    callArguments: Record<string, unknown>,
    executionId: string,
    deadline: number,
    running: RunningCall,
    parentExecutionId: string | undefined,
    callerProgress: ((progress: ToolProgress) => void) | undefined,
    caller: CallerInfo | undefined,
  ) => {
    const { owner } = registered;
    const signal = running.signal;
    const options: PluginCallOptions = {
      signal,
      deadline,
      callTool: (subName, subArgs, subOptions = {}) => callTool(subName, subArgs, { signal, ...subOptions, parentExecutionId: executionId }),
      ...(caller === undefined ? {} : { caller }),
    };
    // Offered only when someone listens: an MCP server is then not asked for progress nobody reads.
    const emitting = emitter.hasListeners("tool:progress");
    if (emitting || callerProgress) {
      options.onProgress = (progress) => {
        if (callerProgress) {
          try {
            callerProgress(progress);
          } catch {
            // A caller's progress callback must not break the call.
          }
        }
        if (emitting) emitter.emit("tool:progress", parentExecutionId === undefined ? { executionId, tool: name, ...progress } : { executionId, tool: name, ...progress, parentExecutionId });
      };
    }
    return running.answer(owner.name, () => owner.instance.callTool({ name, arguments: callArguments, executionId }, options));
  };

  const checkOutput = (registered: RegisteredTool, name: string, outcome: PluginResult, timeoutMs: number): PluginResult => {
    if (outcome.ok) {
      const validator = validatorOf(registered.outputValidator);
      if (validator === undefined) return outcome;
      if (typeof validator !== "function") return toolError("PLUGIN_FAILED", `The outputSchema of "${name}" cannot be compiled: ${validator.failure}`);
      const problems = validator(outcome.value);
      if (problems.length === 0) return outcome;
      const message = `The result of "${name}" does not match its outputSchema: ${formatSchemaProblems(problems).replace(/\barguments\b/g, "result")}`;
      return toolError("INVALID_OUTPUT", message, { problems });
    }
    if (outcome.error.code === "TIMEOUT") return { ok: false, error: { ...outcome.error, details: { timeoutMs, ...outcome.error.details } } satisfies ToolErrorInfo };
    return outcome;
  };

  async function callTool(name: string, args?: unknown, options: CallToolOptions = {}): Promise<ToolResult> {
    if (closedWith) throw new ToolexecError("EXECUTOR_CLOSED", `Cannot call "${displayName(name)}": the executor is closed`);
    const call = { name: displayName(name), args, executionId: randomUUID(), startedAt: Date.now(), started: performance.now(), parentExecutionId: undefined } as Parameters<typeof finish>[1];
    if (typeof name !== "string") return finish(toolError("INVALID_INPUT", `Expected the tool name to be a string, got ${call.name}`), call);
    const read = readCallOptions(options);
    if (!read.ok) return finish(read, call);
    options = read.value;
    const parentExecutionId = (call.parentExecutionId = options.parentExecutionId);
    call.caller = options.caller ?? (parentExecutionId === undefined ? undefined : calls.get(parentExecutionId)?.caller);

    let registered = host.lease(name);
    if (!registered && (await resolveMissing(name, options))) registered = host.lease(name);
    if (!registered) return finish(notFound(name), call);
    call.registered = registered;
    try {
      const snapshot = snapshotArguments(name, args);
      if (!snapshot.ok) return finish(snapshot, call);
      const callArguments = (call.args = snapshot.value);
      const validator = validatorOf(registered.inputValidator);
      if (typeof validator !== "function") return finish(toolError("PLUGIN_FAILED", `The inputSchema of "${name}" cannot be compiled: ${validator?.failure}`), call);
      const problems = validator(callArguments);
      if (problems.length > 0) return finish(toolError("INVALID_INPUT", `Invalid arguments for "${name}": ${formatSchemaProblems(problems)}`, { problems }), call);

      const timeoutMs = (call.timeoutMs = options.timeoutMs ?? registered.definition.timeoutMs ?? dependencies.defaultTimeoutMs);
      const running = new RunningCall(name, timeoutMs, options.signal);
      running.caller = call.caller;
      calls.set(call.executionId, running);
      if (emitter.hasListeners("tool:start")) emitter.emit("tool:start", parentExecutionId === undefined ? { executionId: call.executionId, tool: name, arguments: callArguments } : { executionId: call.executionId, tool: name, arguments: callArguments, parentExecutionId });
      let outcome: PluginResult;
      try {
        let release: (() => void) | undefined;
        try {
          // A call cancelled before it began takes no slot and never reaches the plugin.
          const turn = schedule(registered, name, running, parentExecutionId === undefined ? undefined : calls.get(parentExecutionId));
          release = typeof turn === "function" ? turn : await turn;
        } catch (error) {
          const fault = isToolexecError(error) ? error : new ToolexecError("CANCELLED", String(error));
          outcome = toolError(fault.code, fault.message, fault.details);
        }
        if (release) {
          try {
            outcome = await invoke(registered, name, callArguments, call.executionId, call.startedAt + timeoutMs, running, parentExecutionId, options.onProgress, call.caller);
          } finally {
            release();
          }
        }
        return finish(checkOutput(registered, name, outcome!, timeoutMs), call);
      } finally {
        calls.delete(call.executionId);
        running.end();
      }
    } finally {
      host.release(registered);
    }
  }

  return {
    callTool,
    explainMissing(name) {
      if (host.tools.has(name)) return undefined;
      const missing = notFound(name);
      return missing.ok ? undefined : missing.error;
    },
    async closeAll(reason) {
      closedWith = reason;
      const under = [...calls.values()];
      const settled = under.map((running) => new Promise<void>((resolve) => (running.onSettled = resolve)));
      for (const running of under) running.abort(reason);
      await Promise.all(settled);
    },
  };
}
