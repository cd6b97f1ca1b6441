/**
 * The checks a call's input gets before it reaches a tool: the per-call options, and the arguments
 * object, snapshotted so the caller can never change what the tool sees. A fault of either is a
 * result (`INVALID_OPTIONS`, `INVALID_INPUT`), never a throw.
 */
import { MAX_TIMEOUT_MS } from "../config/tools-config-schema.js";
import { describeValue } from "../config/describe-value.js";
import type { PluginResult } from "../plugin-contract.js";
import { toolError } from "../tool-result.js";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

const OPTION_KEYS = new Set(["signal", "timeoutMs", "parentExecutionId", "onProgress", "caller"]);

/** The problem with `callTool`'s options, if any: a bad timeout, a signal that is not an AbortSignal, an unknown key. */
export function checkCallOptions(options: unknown): PluginResult | undefined {
  if (!isPlainObject(options)) return toolError("INVALID_OPTIONS", `Expected the call options to be an object like { signal, timeoutMs }, got ${describeValue(options)}`);
  // for-in, not Object.keys: this runs on every call, and most calls pass no options at all.
  for (const key in options) {
    if (!OPTION_KEYS.has(key)) return toolError("INVALID_OPTIONS", `Unknown call option "${key}"; expected signal, timeoutMs, onProgress, caller or parentExecutionId`);
  }
  const { timeoutMs, signal, parentExecutionId } = options;
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && (timeoutMs as number) > 0 && (timeoutMs as number) <= MAX_TIMEOUT_MS)) {
    return toolError("INVALID_OPTIONS", `Expected timeoutMs to be a whole number of ms from 1 to ${MAX_TIMEOUT_MS}, got ${describeValue(timeoutMs)}`);
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) return toolError("INVALID_OPTIONS", `Expected signal to be an AbortSignal, got ${describeValue(signal)}`);
  if (options.onProgress !== undefined && typeof options.onProgress !== "function") return toolError("INVALID_OPTIONS", `Expected onProgress to be a function, got ${describeValue(options.onProgress)}`);
  if (options.caller !== undefined && (options.caller === null || typeof options.caller !== "object")) return toolError("INVALID_OPTIONS", `Expected caller to be an object like { name, version, sessionId }, got ${describeValue(options.caller)}`);
  if (parentExecutionId !== undefined && typeof parentExecutionId !== "string") {
    return toolError("INVALID_OPTIONS", `Expected parentExecutionId to be a string, got ${describeValue(parentExecutionId)}`);
  }
  return undefined;
}

/**
 * The arguments as the tool will see them: a JSON round trip rejects what cannot cross to a tool
 * (functions, BigInt, cycles) and snapshots the caller's object.
 */
export function snapshotArguments(name: string, args: unknown): { ok: true; value: Record<string, unknown> } | Extract<PluginResult, { ok: false }> {
  if (args === undefined || args === null) return { ok: true, value: {} };
  if (!isPlainObject(args)) {
    const kind = typeof args === "object" && !Array.isArray(args) ? `a ${(args as object).constructor?.name ?? "non-plain object"}` : describeValue(args);
    return toolError("INVALID_INPUT", `Expected the arguments of "${name}" to be a plain object, got ${kind}`);
  }
  try {
    return { ok: true, value: JSON.parse(JSON.stringify(args)) as Record<string, unknown> };
  } catch (error) {
    return toolError("INVALID_INPUT", `The arguments of "${name}" are not JSON-serializable: ${(error as Error).message}`);
  }
}
