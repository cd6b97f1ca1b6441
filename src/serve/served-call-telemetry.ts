/**
 * Telemetry of one served `tools/call`, per the MCP semantic conventions: a SERVER span
 * `tools/call {tool}` whose parent is the trace context the client put in `params._meta`
 * (`traceparent`, `tracestate`), active while the executor runs the call (so its `execute_tool`
 * span is a child), and `mcp.server.operation.duration`. Nothing when nobody traces or meters.
 */
import { performance } from "node:perf_hooks";
import type { Attributes } from "@opentelemetry/api";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  DURATION_BUCKETS_SECONDS,
  EXECUTE_TOOL,
  INSTRUMENTATION_NAME,
  INSTRUMENTATION_VERSION,
  TELEMETRY_ATTRIBUTES as ATTRIBUTE,
  TELEMETRY_METRICS as METRIC,
  TOOL_ERROR,
  isCapturingContent,
  isTracingEnabled,
  meterInstruments,
} from "../plugin.js";
import { ERROR_CODE_META_KEY } from "./to-mcp-result.js";

/** What the handler knows of the request: its params and the SDK's `extra`. */
export interface ServedCall {
  params: { name: string; _meta?: Record<string, unknown> };
  extra: { sessionId?: string; requestId: string | number; requestInfo?: { headers?: Record<string, string | string[] | undefined> } };
}

const durations = meterInstruments((meter) =>
  meter.createHistogram(METRIC.mcpServerDuration, {
    description: "Duration of MCP requests served by toolexec, from arrival to answer",
    unit: "s",
    advice: { explicitBucketBoundaries: [...DURATION_BUCKETS_SECONDS] },
  }),
);

function servedAttributes({ extra }: ServedCall, toolName: string): Attributes {
  const attributes: Attributes = {
    [ATTRIBUTE.mcpMethodName]: "tools/call",
    [ATTRIBUTE.operationName]: EXECUTE_TOOL,
    [ATTRIBUTE.toolName]: toolName,
    // Only the HTTP transport hands over request info; stdio is a pipe.
    [ATTRIBUTE.networkTransport]: extra.requestInfo ? "tcp" : "pipe",
  };
  const version = extra.requestInfo?.headers?.["mcp-protocol-version"];
  if (typeof version === "string") attributes[ATTRIBUTE.mcpProtocolVersion] = version;
  if (extra.sessionId !== undefined && isCapturingContent()) attributes[ATTRIBUTE.mcpSessionId] = extra.sessionId;
  return attributes;
}

/**
 * @example
 * server.setRequestHandler(CallToolRequestSchema, (request, extra) => traceServedCall({ params: request.params, extra }, () => callExecutor(request)));
 */
export async function traceServedCall(call: ServedCall, work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  const histogram = durations();
  const tracing = isTracingEnabled();
  if (!histogram && !tracing) return work();
  // Only now: something registered a provider, so the API is loaded already; nobody listening, it never loads.
  const { SpanKind, SpanStatusCode, context, propagation, trace } = await import("@opentelemetry/api");
  const started = performance.now();
  const attributes = servedAttributes(call, call.params.name);
  const parent = propagation.extract(context.active(), call.params._meta ?? {});
  const span = tracing ? trace.getTracer(INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION).startSpan(`tools/call ${call.params.name}`, { kind: SpanKind.SERVER, attributes: { ...attributes, [ATTRIBUTE.jsonRpcRequestId]: String(call.extra.requestId) } }, parent) : undefined;
  let result: CallToolResult | undefined;
  try {
    result = span ? await context.with(trace.setSpan(parent, span), work) : await work();
    return result;
  } finally {
    const code = (result?._meta as Record<string, unknown> | undefined)?.[ERROR_CODE_META_KEY];
    // A name no tool has is the client's to choose: the metric says `_OTHER`, so made-up names cannot grow it.
    if (code === "TOOL_NOT_FOUND") attributes[ATTRIBUTE.toolName] = "_OTHER";
    if (result === undefined || result.isError) attributes[ATTRIBUTE.errorType] = result === undefined ? "_OTHER" : TOOL_ERROR;
    histogram?.record((performance.now() - started) / 1000, attributes);
    if (span) {
      if (result?.isError) {
        span.setAttribute(ATTRIBUTE.errorType, TOOL_ERROR);
        span.setStatus({ code: SpanStatusCode.ERROR, message: typeof code === "string" ? code : "The tool call failed" });
      }
      span.end();
    }
  }
}
