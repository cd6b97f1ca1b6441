/**
 * The served MCP client as the caller of one `tools/call`: who it is (logged with the call), and what
 * it can answer while the call runs — `request_human_input`'s question and upstream servers'
 * `elicitation/create` when it declared elicitation, their `sampling/createMessage` when it declared
 * sampling, and their log messages at or above the level it set. Each goes out related to the
 * call's request, so over HTTP it travels on that call's own stream.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ElicitResultSchema, type CreateMessageRequest, type LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import type { CallerInfo, PersonAnswer } from "../index.js";

/** MCP's log levels, least severe first. */
const LEVELS: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/** Whether a message at `level` passes the client's `logging/setLevel` (everything passes until it sets one). */
export function passesLevel(level: string, minimum: LoggingLevel | undefined): boolean {
  if (minimum === undefined) return true;
  const rank = LEVELS.indexOf(level as LoggingLevel);
  return rank === -1 || rank >= LEVELS.indexOf(minimum);
}

/** `request_human_input`'s question as an elicitation form: one string field, an enum when there are options. */
export function questionForm(question: string, choices: string[] | undefined) {
  const answer = choices ? { type: "string" as const, title: "Answer", enum: choices } : { type: "string" as const, title: "Answer" };
  return { message: question, requestedSchema: { type: "object" as const, properties: { answer }, required: ["answer"] } };
}

export interface ClientCallerOptions {
  server: Server;
  /** The transport's session id, else one the served session made for itself (stdio has none). */
  sessionId: string;
  /** The `tools/call` request this caller makes: what it sends is related to it. */
  requestId: string | number;
  sendNotification(notification: { method: "notifications/message"; params: { level: LoggingLevel; logger?: string; data: unknown } }): Promise<void>;
  /** The level the client last set with `logging/setLevel`. */
  logLevel(): LoggingLevel | undefined;
}

/**
 * @example
 * const caller = createClientCaller({ server, sessionId, requestId: extra.requestId, sendNotification: extra.sendNotification, logLevel: () => level });
 * await executor.callTool(name, args, { caller });
 */
export function createClientCaller(options: ClientCallerOptions): CallerInfo {
  const { server, requestId } = options;
  const client = server.getClientVersion();
  const capabilities = server.getClientCapabilities();
  const related = (signal: AbortSignal) => ({ signal, relatedRequestId: requestId });

  // The client's person, asked request_human_input's question.
  const ask = async ({ question, options: choices, signal }: { question: string; options?: string[]; signal: AbortSignal }): Promise<PersonAnswer> => {
    const reply = await server.elicitInput(questionForm(question, choices), related(signal));
    if (reply.action !== "accept") return { action: reply.action };
    return { action: "accept", answer: String(reply.content?.answer ?? "") };
  };

  // An upstream server's form or URL, passed through as written; the upstream server checks the answer.
  const elicit = async (params: Record<string, unknown>, { signal }: { signal: AbortSignal }) => {
    if (params.mode === "url" && !capabilities?.elicitation?.url) throw new Error("This client cannot open URLs for elicitation (it declared form elicitation only)");
    return (await server.request({ method: "elicitation/create", params: params as never }, ElicitResultSchema, related(signal))) as Record<string, unknown>;
  };

  const createMessage = async (params: Record<string, unknown>, { signal }: { signal: AbortSignal }) =>
    (await server.createMessage(params as CreateMessageRequest["params"], related(signal))) as Record<string, unknown>;

  const log = (message: { level: string; logger?: string; data: unknown }) => {
    if (!passesLevel(message.level, options.logLevel())) return;
    void options.sendNotification({ method: "notifications/message", params: message as { level: LoggingLevel; logger?: string; data: unknown } }).catch(() => undefined);
  };

  return {
    ...(client === undefined ? {} : { name: client.name, version: client.version }),
    sessionId: options.sessionId,
    ...(capabilities?.elicitation === undefined ? {} : { ask, elicit }),
    ...(capabilities?.sampling === undefined ? {} : { createMessage }),
    log,
  };
}
