/**
 * Telemetry of one request to an upstream MCP server, per the MCP semantic conventions: a CLIENT
 * span `{method} {target}` (child of the active context: a tool call's `execute_tool` span), the
 * trace context injected unprefixed into `params._meta` (`traceparent`, `tracestate`), and
 * `mcp.client.operation.duration`. Nothing at all when nobody traces or meters.
 */
import { performance } from "node:perf_hooks";
import { SpanKind, SpanStatusCode, context, propagation, trace, type Attributes, type Span } from "@opentelemetry/api";
import { meterInstruments } from "../../core/telemetry/meter-instruments.js";
import { ATTRIBUTE, DURATION_BUCKETS_SECONDS, EXECUTE_TOOL, INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION, METRIC, TOOL_ERROR } from "../../core/telemetry/telemetry-names.js";
import { isCapturingContent, isTracingEnabled } from "../../core/telemetry/tracing-enabled.js";
import type { RequestOutcome } from "./pending-requests.js";
import type { SessionRun } from "./session-run.js";

export interface McpRequest {
  method: string;
  params?: Record<string, unknown>;
}

export interface RequestTelemetry {
  /** The request to send: `params._meta` carries the trace context when a span was started. */
  request: McpRequest;
  end(outcome: RequestOutcome<unknown>): void;
}

const durations = meterInstruments((meter) =>
  meter.createHistogram(METRIC.mcpClientDuration, {
    description: "Duration of MCP requests as toolexec sent them to upstream servers, until the answer came",
    unit: "s",
    advice: { explicitBucketBoundaries: [...DURATION_BUCKETS_SECONDS] },
  }),
);


function requestAttributes(run: SessionRun, request: McpRequest): Attributes {
  const attributes: Attributes = { [ATTRIBUTE.mcpMethodName]: request.method, [ATTRIBUTE.serverName]: run.entry.name, [ATTRIBUTE.networkTransport]: run.kind === "stdio" ? "pipe" : "tcp" };
  const name = request.params?.name;
  if (request.method === "tools/call" && typeof name === "string") {
    attributes[ATTRIBUTE.toolName] = name;
    attributes[ATTRIBUTE.operationName] = EXECUTE_TOOL;
  }
  if (request.method === "prompts/get" && typeof name === "string") attributes["gen_ai.prompt.name"] = name;
  if (run.entry.transport !== "stdio") {
    const url = new URL(run.entry.url);
    attributes[ATTRIBUTE.serverAddress] = url.hostname.replace(/^\[|\]$/g, "");
    attributes[ATTRIBUTE.serverPort] = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  }
  const transport = run.built?.transport as { protocolVersion?: unknown; sessionId?: unknown } | undefined;
  if (typeof transport?.protocolVersion === "string") attributes[ATTRIBUTE.mcpProtocolVersion] = transport.protocolVersion;
  // Session ids are secrets to the log's default redaction: on spans only with the content opt-in.
  if (typeof transport?.sessionId === "string" && isCapturingContent()) attributes[ATTRIBUTE.mcpSessionId] = transport.sessionId;
  return attributes;
}

/** `error.type`: our code for a failed request, `tool_error` for a tool's `isError` answer. */
function errorType(outcome: RequestOutcome<unknown>): { type: string; message: string } | undefined {
  if (!outcome.ok) return { type: outcome.failure.code ?? "SERVICE_UNAVAILABLE", message: outcome.failure.message };
  if ((outcome.value as { isError?: unknown } | null)?.isError === true) return { type: TOOL_ERROR, message: "The tool answered with isError" };
  return undefined;
}

function startSpan(request: McpRequest, attributes: Attributes): { span: Span; request: McpRequest } {
  const name = typeof attributes[ATTRIBUTE.toolName] === "string" ? `${request.method} ${attributes[ATTRIBUTE.toolName]}` : request.method;
  const span = trace.getTracer(INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION).startSpan(name, { kind: SpanKind.CLIENT, attributes });
  const meta: Record<string, unknown> = { ...(request.params?._meta as Record<string, unknown> | undefined) };
  propagation.inject(trace.setSpan(context.active(), span), meta);
  return { span, request: { ...request, params: { ...request.params, _meta: meta } } };
}

/**
 * @example
 * const telemetry = startRequestTelemetry(run, { method: "tools/call", params: { name, arguments } });
 * const outcome = await send(telemetry?.request ?? request);
 * telemetry?.end(outcome);
 */
export function startRequestTelemetry(run: SessionRun, request: McpRequest): RequestTelemetry | undefined {
  const histogram = durations();
  const tracing = isTracingEnabled();
  if (!histogram && !tracing) return undefined;
  const started = performance.now();
  const attributes = requestAttributes(run, request);
  const traced = tracing ? startSpan(request, attributes) : undefined;
  return {
    request: traced?.request ?? request,
    end(outcome) {
      const failed = errorType(outcome);
      if (failed) attributes[ATTRIBUTE.errorType] = failed.type;
      histogram?.record((performance.now() - started) / 1000, attributes);
      if (!traced) return;
      if (failed) {
        traced.span.setAttribute(ATTRIBUTE.errorType, failed.type);
        traced.span.setStatus({ code: SpanStatusCode.ERROR, message: failed.message });
      }
      traced.span.end();
    },
  };
}
