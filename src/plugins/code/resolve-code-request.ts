/**
 * A `code_execution` request checked against the configured ceilings: a request may lower the
 * timeout, the call cap and the allowed servers, never raise or widen them.
 */
import { describeValue } from "../../core/json/describe-value.js";
import type { CodeExecutionInput } from "./declarations/index.js";
import type { ResolvedCodeExecutionOptions } from "./config/code-execution-options.js";
import type { CallPolicy } from "./tool-dispatch.js";

/** The input crosses to the runtime as JSON text; beyond this it belongs in a file a tool reads. */
export const MAX_CODE_INPUT_BYTES = 16 * 1024 * 1024;

export interface ResolvedCodeRequest {
  code: string;
  inputJson: string;
  inputBytes: number;
  timeoutMs: number;
  policy: CallPolicy;
}

export type ResolveCodeRequestResult = { ok: true; request: ResolvedCodeRequest } | { ok: false; message: string };

const isWhole = (value: unknown, minimum: number): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= minimum;

/**
 * @example
 * resolveCodeRequest({ code: "1", options: { timeout_ms: 5000 } }, options);
 * // { ok: true, request: { code: "1", inputJson: "null", timeoutMs: 5000, policy: { ... } } }
 */
export function resolveCodeRequest(args: unknown, options: ResolvedCodeExecutionOptions): ResolveCodeRequestResult {
  const { code, input, options: requested = {} } = (args ?? {}) as Partial<CodeExecutionInput>;
  if (typeof code !== "string" || code.trim() === "") return { ok: false, message: `Expected "code" to be a non-empty string of JavaScript, got ${describeValue(code)}` };
  const codeBytes = Buffer.byteLength(code, "utf8");
  if (codeBytes > options.maxCodeBytes) {
    return { ok: false, message: `The code is ${codeBytes} bytes, over the limit of ${options.maxCodeBytes}; pass data in "input" instead of the code` };
  }
  let inputJson: string;
  try {
    inputJson = JSON.stringify(input ?? null);
  } catch (error) {
    return { ok: false, message: `"input" is not JSON-serializable: ${(error as Error).message}` };
  }
  const inputBytes = Buffer.byteLength(inputJson, "utf8");
  if (inputBytes > MAX_CODE_INPUT_BYTES) return { ok: false, message: `"input" is ${inputBytes} bytes as JSON, over the limit of ${MAX_CODE_INPUT_BYTES}` };

  const { timeout_ms: timeout, max_tool_calls: maxCalls, allowed_servers: servers } = (requested ?? {}) as NonNullable<CodeExecutionInput["options"]>;
  if (timeout !== undefined && !(isWhole(timeout, 1) && timeout <= options.maxTimeoutMs)) {
    return { ok: false, message: `Expected options.timeout_ms to be a whole number of ms from 1 to ${options.maxTimeoutMs} (the configured maximum), got ${describeValue(timeout)}` };
  }
  if (maxCalls !== undefined) {
    const ceiling = options.maxToolCalls;
    if (!isWhole(maxCalls, 0)) return { ok: false, message: `Expected options.max_tool_calls to be a whole number from 0, got ${describeValue(maxCalls)}` };
    if (ceiling > 0 && (maxCalls === 0 || maxCalls > ceiling)) {
      return { ok: false, message: `options.max_tool_calls may not exceed the configured maximum of ${ceiling} (0, unlimited, is not allowed), got ${maxCalls}` };
    }
  }
  if (servers !== undefined) {
    if (!Array.isArray(servers) || !servers.every((server) => typeof server === "string")) {
      return { ok: false, message: `Expected options.allowed_servers to be a list of server names, got ${describeValue(servers)}` };
    }
    const outside = options.allowedServers === null ? [] : servers.filter((server) => !options.allowedServers!.includes(server));
    if (outside.length > 0) {
      return {
        ok: false,
        message: `options.allowed_servers may only narrow the configured servers (${options.allowedServers!.join(", ") || "none"}); not allowed: ${outside.join(", ")}`,
      };
    }
  }
  return {
    ok: true,
    request: {
      code,
      inputJson,
      inputBytes,
      timeoutMs: timeout ?? options.timeoutMs,
      policy: { allowedServers: servers ? [...new Set(servers)] : options.allowedServers, maxToolCalls: maxCalls ?? options.maxToolCalls },
    },
  };
}
