/**
 * The budget of one request to an MCP server that is not a tool call (listing and reading resources
 * and prompts): the caller's timeout, else the server's, else 30 s, as a deadline and a signal.
 */
import { ToolexecError } from "../../core/errors/toolexec-error.js";
import type { ServerConnection } from "./server-connection.js";

/** Budget of a resource request when neither the call nor the server names one. */
export const DEFAULT_RESOURCE_TIMEOUT_MS = 30_000;

/** Options of a request to a server outside a tool call (resources, prompts, completions): its budget and signal. */
export interface ResourceRequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** The request's deadline and signal: the caller's signal, or `TIMEOUT` when the budget runs out. */
export function requestBudget(connection: ServerConnection, options: ResourceRequestOptions) {
  const timeoutMs = options.timeoutMs ?? connection.entry.timeoutMs ?? DEFAULT_RESOURCE_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new ToolexecError("TIMEOUT", `Server "${connection.entry.name}" did not answer within ${timeoutMs} ms`)), timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
  return { deadline: Date.now() + timeoutMs, signal, timeoutMs, done: () => clearTimeout(timer) };
}
