/**
 * One request to a server that is not a tool call and is safe to repeat (reading a resource, getting
 * a prompt, subscribing): within its budget (request-budget.ts), reconnecting and retrying like a
 * read-only call; a failure is a value naming the server and what was asked.
 */
import type { z } from "zod";
import type { ToolErrorInfo } from "../../core/plugin-contract.js";
import { toolError } from "../../core/tool-result.js";
import { requestBudget, type ResourceRequestOptions } from "./request-budget.js";
import { requestWithRetry } from "./request-with-retry.js";
import type { ServerConnection } from "./server-connection.js";

/**
 * @example
 * const read = await requestServer(connection, "resources/read", { uri }, ReadResourceResultSchema, options, { uri });
 * if (read.ok) use(read.value.contents);
 */
export async function requestServer<Schema extends z.ZodType>(
  connection: ServerConnection,
  method: string,
  params: Record<string, unknown>,
  schema: Schema,
  options: ResourceRequestOptions,
  /** What was asked, for messages and the error's details: `{ uri }`, `{ prompt: name }`. */
  subject: Record<string, string>,
): Promise<{ ok: true; value: z.infer<Schema> } | { ok: false; error: ToolErrorInfo }> {
  const { deadline, signal, timeoutMs, done } = requestBudget(connection, options);
  const outcome = await requestWithRetry(
    connection,
    (session) => session.request({ method, params }, schema, { signal, timeoutMs: timeoutMs + 1_000 }),
    { deadline, signal, repeatable: true, what: `${method} ${Object.values(subject).join(" ")}` },
  ).finally(done);
  if (!outcome.ok) return toolError(outcome.failure.code ?? "SERVICE_UNAVAILABLE", outcome.failure.message, { server: connection.entry.name, ...subject, ...outcome.failure.details });
  return { ok: true, value: outcome.value as z.infer<Schema> };
}
