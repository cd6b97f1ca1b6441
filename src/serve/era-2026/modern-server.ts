/**
 * The served executor for protocol 2026-07-28 clients, on the SDK v2 `Server`: no session and no
 * `initialize`; who the client is, its capabilities, log level and trace context come with each
 * request's `_meta` envelope. Tools, prompts, resources and completions are the same as the 2025
 * era's (create-mcp-server.ts). `request_human_input` goes out as an `inputRequired` result
 * (human-input-rounds.ts). Server→client requests in the middle of a call do not exist in this
 * era, so an upstream server's elicitation or sampling during a call is answered by the host's
 * `onElicitation` / `onSampling`, as for a client that cannot answer.
 */
import {
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  Server,
  type CallToolResult,
  type InputRequiredResult,
  type LoggingLevel,
  createRequestStateCodec,
  type RequestStateCodec,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { HUMAN_INPUT_TOOL_NAME, type CallerInfo, type Executor } from "../../index.js";
import type { CallerAccess } from "../../plugin.js";
import { passesLevel } from "../client-caller.js";
import { completeServed } from "../serve-completions.js";
import { getServedPrompt, listServedPrompts } from "../serve-prompts.js";
import { listServedResources, listServedResourceTemplates, readServedResource } from "../serve-resources.js";
import { traceServedCall } from "../served-call-telemetry.js";
import { toMcpResult, toMcpTool } from "../to-mcp-result.js";
import { canElicit, humanInputRound, type HumanInputState } from "./human-input-rounds.js";
import { REQUEST_STATE_TTL_SECONDS } from "./request-state-key.js";

/** The protocol revision this era serves. */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";

export interface ModernServerOptions {
  name: string;
  version: string;
  codec: RequestStateCodec<HumanInputState>;
  /** The served principal's access (docs/identity.md): the listing is its view and every call carries it. */
  access?: CallerAccess;
}

/** Where the admitted principal's access travels in the SDK's `authInfo.extra` (serve-modern-http.ts puts it there). */
export const ACCESS_KEY = "toolexec/access";

/** Who the request was admitted as (`kind:id`), or "" when serving knows no principal. */
function principalOf(context: ServerContext): string {
  const access = context.http?.authInfo?.extra?.[ACCESS_KEY] as CallerAccess | undefined;
  return access === undefined ? "" : `${access.principal.kind}:${access.principal.id}`;
}

/**
 * The HMAC codec of `request_human_input`'s state, bound to the method it was issued for and to the
 * principal it was issued to: a state minted for one key or token is refused when another replays it.
 *
 * @example
 * const codec = humanInputCodec(resolveRequestStateKey(options.requestStateKey));
 */
export function humanInputCodec(key: string | Uint8Array): RequestStateCodec<HumanInputState> {
  return createRequestStateCodec<HumanInputState>({ key, ttlSeconds: REQUEST_STATE_TTL_SECONDS, bind: (context) => `${context.mcpReq.method}\0${principalOf(context)}` });
}

/** The envelope's keys as a plain record (the SDK types it per key). */
const envelopeOf = (context: ServerContext): Record<string, unknown> => (context.mcpReq.envelope ?? {}) as Record<string, unknown>;

/** The 2026 client as the caller of one call: who it is (from the envelope) and its log messages at its level. */
function modernCaller(context: ServerContext): CallerInfo {
  const envelope = envelopeOf(context);
  const client = envelope[CLIENT_INFO_META_KEY] as { name?: string; version?: string } | undefined;
  const level = envelope[LOG_LEVEL_META_KEY] as LoggingLevel | undefined;
  return {
    ...(typeof client?.name === "string" ? { name: client.name } : {}),
    ...(typeof client?.version === "string" ? { version: client.version } : {}),
    // Log messages only to a client that asked for them (its envelope names a level): the era's default is none.
    ...(level === undefined
      ? {}
      : {
          log: (message: { level: string; logger?: string; data: unknown }) => {
            if (passesLevel(message.level, level)) void context.mcpReq.notify({ method: "notifications/message", params: message as never }).catch(() => undefined);
          },
        }),
  };
}

async function callTool(executor: Executor, options: ModernServerOptions, params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> }, context: ServerContext): Promise<CallToolResult | InputRequiredResult> {
  const args = params.arguments ?? {};
  const caller = options.access === undefined ? modernCaller(context) : { ...modernCaller(context), access: options.access };
  if (params.name === HUMAN_INPUT_TOOL_NAME && canElicit(context)) {
    const round = await humanInputRound(args, context, (state, stateContext) => options.codec.mint(state, stateContext));
    if (round.kind === "ask") return round.result;
    if (round.kind === "answered") caller.ask = round.ask;
  }
  const progressToken = context.mcpReq._meta?.progressToken;
  const result = await executor.callTool(params.name, args, {
    signal: context.mcpReq.signal,
    caller,
    bounded: true,
    ...(progressToken === undefined
      ? {}
      : { onProgress: (progress) => void context.mcpReq.notify({ method: "notifications/progress", params: { progressToken, ...progress } }).catch(() => undefined) }),
  });
  return toMcpResult(result) as CallToolResult;
}

/**
 * @example
 * const handler = createMcpHandler(() => createModernServer(executor, { name: "toolexec", version, codec }), { legacy: "reject" });
 */
export function createModernServer(executor: Executor, options: ModernServerOptions): Server {
  const server = new Server(
    { name: options.name, version: options.version },
    {
      capabilities: { tools: { listChanged: true }, resources: {}, prompts: {}, completions: {}, logging: {} },
      requestState: { verify: (state, context) => options.codec.verify(state, context) },
    },
  );
  const { access } = options;
  server.setRequestHandler("tools/list", async () => {
    const tools = await executor.listTools(access === undefined ? undefined : { access });
    return { tools: tools.map(toMcpTool) as never };
  });
  server.setRequestHandler("tools/call", (request, context) => {
    const envelope = envelopeOf(context);
    // The trace context rides in `_meta` as in 2025; the protocol version is the envelope's.
    const served = { params: { name: request.params.name, _meta: { ...context.mcpReq._meta, ...envelope } }, extra: { requestId: context.mcpReq.id, requestInfo: { headers: { "mcp-protocol-version": MODERN_PROTOCOL_VERSION } } } };
    return traceServedCall(served, () => callTool(executor, options, request.params, context) as Promise<never>) as never;
  });
  server.setRequestHandler("prompts/list", () => listServedPrompts(executor) as never);
  server.setRequestHandler("prompts/get", (request, context) => getServedPrompt(executor, request.params, context.mcpReq.signal) as never);
  server.setRequestHandler("resources/list", () => listServedResources(executor) as never);
  server.setRequestHandler("resources/templates/list", () => listServedResourceTemplates(executor) as never);
  server.setRequestHandler("resources/read", (request, context) => readServedResource(executor, request.params.uri, modernCaller(context), context.mcpReq.signal) as never);
  server.setRequestHandler("completion/complete", (request, context) => completeServed(executor, request.params as never, context.mcpReq.signal) as never);
  return server;
}
