/**
 * The checks a call's input gets before it reaches a tool: the per-call options, and the arguments
 * object, snapshotted so the caller can never change what the tool sees. A fault of either is a
 * result (`INVALID_OPTIONS`, `INVALID_INPUT`), never a throw.
 */
import { MAX_TIMEOUT_MS } from "../config/timeout-limits.js";
import { describeValue } from "../json/describe-value.js";
import { rememberJsonText } from "../log/json-text.js";
import type { CallToolOptions, PluginResult } from "../plugin-contract.js";
import { toolError } from "../tool-result.js";
import { callGroupOf, type CallGroup } from "./call-group.js";
import { takeHandedOver } from "./handed-over-arguments.js";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

const OPTION_KEYS = new Set(["signal", "timeoutMs", "parentExecutionId", "onProgress", "caller", "bounded", "toolCallId"]);

/** `callTool`'s options as read once: a getter or Proxy trap runs at most once, here. */
/** `callTool`'s options as the pipeline reads them: every key of `CallToolOptions`, copied once. */
/** The options as checked, with the internal call group code mode's calls carry (call-group.ts). */
export type ReadCallOptions = CallToolOptions & { group?: CallGroup };

type Failure = Extract<PluginResult, { ok: false }>;

/** A name for messages and the log, whatever the caller passed: a Symbol or an object whose `toString` throws cannot break a call. */
export function displayName(name: unknown): string {
  if (typeof name === "string") return name;
  if (typeof name === "symbol") return name.toString();
  try {
    return describeValue(name);
  } catch {
    return "an object";
  }
}

/**
 * `callTool`'s options, checked and copied: a bad timeout, a signal that is not an AbortSignal, an
 * unknown key, or options that cannot be read (a throwing getter or Proxy trap) are a result.
 */
export function readCallOptions(options: unknown): { ok: true; value: ReadCallOptions } | Failure {
  try {
    return checkCallOptions(options);
  } catch (error) {
    return toolError("INVALID_OPTIONS", `The call options could not be read: ${(error as Error)?.message ?? String(error)}`);
  }
}

/** What options without a key read as: one frozen answer, since most calls pass no options at all. */
const NO_OPTIONS: { ok: true; value: ReadCallOptions } = Object.freeze({ ok: true, value: Object.freeze({ bounded: false }) });

function checkCallOptions(options: unknown): { ok: true; value: ReadCallOptions } | Failure {
  if (!isPlainObject(options)) return toolError("INVALID_OPTIONS", `Expected the call options to be an object like { signal, timeoutMs }, got ${describeValue(options)}`);
  let keys = 0;
  // for-in, not Object.keys: this runs on every call.
  for (const key in options) {
    if (!OPTION_KEYS.has(key)) return toolError("INVALID_OPTIONS", `Unknown call option "${key}"; expected signal, timeoutMs, onProgress, caller, parentExecutionId, bounded or toolCallId`);
    keys++;
  }
  if (keys === 0 && callGroupOf(options) === undefined) return NO_OPTIONS;
  const { timeoutMs, signal, parentExecutionId, onProgress, caller, bounded, toolCallId } = options;
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && (timeoutMs as number) > 0 && (timeoutMs as number) <= MAX_TIMEOUT_MS)) {
    return toolError("INVALID_OPTIONS", `Expected timeoutMs to be a whole number of ms from 1 to ${MAX_TIMEOUT_MS}, got ${describeValue(timeoutMs)}`);
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) return toolError("INVALID_OPTIONS", `Expected signal to be an AbortSignal, got ${describeValue(signal)}`);
  if (onProgress !== undefined && typeof onProgress !== "function") return toolError("INVALID_OPTIONS", `Expected onProgress to be a function, got ${describeValue(onProgress)}`);
  if (caller !== undefined && (caller === null || typeof caller !== "object")) return toolError("INVALID_OPTIONS", `Expected caller to be an object like { name, version, sessionId }, got ${describeValue(caller)}`);
  if (bounded !== undefined && typeof bounded !== "boolean") return toolError("INVALID_OPTIONS", `Expected bounded to be true or false, got ${describeValue(bounded)}`);
  if (parentExecutionId !== undefined && typeof parentExecutionId !== "string") {
    return toolError("INVALID_OPTIONS", `Expected parentExecutionId to be a string, got ${describeValue(parentExecutionId)}`);
  }
  if (toolCallId !== undefined && typeof toolCallId !== "string") return toolError("INVALID_OPTIONS", `Expected toolCallId to be a string, got ${describeValue(toolCallId)}`);
  return {
    ok: true,
    value: {
      signal: signal as AbortSignal | undefined,
      timeoutMs: timeoutMs as number | undefined,
      parentExecutionId: parentExecutionId as string | undefined,
      onProgress: onProgress as ReadCallOptions["onProgress"],
      caller: caller as ReadCallOptions["caller"],
      bounded: bounded === true,
      group: callGroupOf(options),
      ...(toolCallId === undefined ? {} : { toolCallId: toolCallId as string }),
    },
  };
}

/**
 * The arguments as the tool will see them: a JSON round trip rejects what cannot cross to a tool
 * (functions, BigInt, cycles) and snapshots the caller's object. A Proxy whose traps throw is
 * refused the same way.
 */
export function snapshotArguments(name: string, args: unknown): { ok: true; value: Record<string, unknown> } | Failure {
  try {
    return snapshot(name, args);
  } catch (error) {
    return toolError("INVALID_INPUT", `The arguments of "${name}" could not be read: ${(error as Error)?.message ?? String(error)}`);
  }
}

function snapshot(name: string, args: unknown): { ok: true; value: Record<string, unknown> } | Failure {
  if (args === undefined || args === null) return { ok: true, value: {} };
  if (!isPlainObject(args)) {
    const kind = typeof args === "object" && !Array.isArray(args) ? `a ${(args as object).constructor?.name ?? "non-plain object"}` : describeValue(args);
    return toolError("INVALID_INPUT", `Expected the arguments of "${name}" to be a plain object, got ${kind}`);
  }
  // A fresh parse nobody else holds (handed-over-arguments.ts) is already what a snapshot would make.
  if (takeHandedOver(args)) return { ok: true, value: args };
  try {
    const json = JSON.stringify(args);
    const value = JSON.parse(json) as Record<string, unknown>;
    // The execution log takes wide arguments' snapshot from this text instead of serializing them again.
    rememberJsonText(value, json, "arguments");
    return { ok: true, value };
  } catch (error) {
    return toolError("INVALID_INPUT", `The arguments of "${name}" are not JSON-serializable: ${(error as Error).message}`);
  }
}
