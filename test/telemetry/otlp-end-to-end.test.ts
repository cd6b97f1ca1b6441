/**
 * One trace across real processes: an MCP client with its own OpenTelemetry SDK sends a traceparent
 * in `params._meta` → `toolexec serve --http` (started with OTEL_EXPORTER_OTLP_ENDPOINT) → a real
 * upstream MCP server over stdio, which answers with the `_meta` it received. Both the client and
 * toolexec export over OTLP/HTTP (json) to a receiver process; every span shares one trace id.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SpanKind, context, propagation, trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { execa, type ResultPromise } from "execa";
import { afterAll, expect, it, vi } from "vitest";
import { createTempProject } from "../helpers/temp-project.js";
import { TOOLEXEC_BIN } from "../helpers/toolexec-bin.mjs";
import { httpClient } from "../serve/serve-test-helpers.js";
import { TRACE_META_SERVER } from "./telemetry-test-helpers.js";

const REPOSITORY = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const RECEIVER = path.join(REPOSITORY, "test", "fixtures", "telemetry", "otlp-receiver.mjs");

interface ReceivedSpan {
  service: string;
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
}

const children: ResultPromise[] = [];
afterAll(async () => {
  for (const child of children) child.kill("SIGTERM");
  await Promise.allSettled(children);
  trace.disable();
  context.disable();
  propagation.disable();
});

const firstLine = (child: ResultPromise) => new Promise<string>((resolve) => child.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString().trim())));

it("keeps one trace id from the client through toolexec serve to the upstream server (OTLP spans from both processes)", async () => {
  const project = createTempProject({ tools: { tools: [] } });
  project.write("mcp.json", { mcpServers: { meta: { command: process.execPath, args: [TRACE_META_SERVER] } } });
  const received = project.path("received-spans.jsonl");
  const receiver = execa(process.execPath, [RECEIVER], { env: { RECEIVER_LOG: received }, reject: false, stdin: "ignore" });
  children.push(receiver);
  const endpoint = await firstLine(receiver);

  const serve = execa(process.execPath, [TOOLEXEC_BIN, "serve", "--http", "--root", project.root], {
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_SERVICE_NAME: "toolexec-under-test", OTEL_BSP_SCHEDULE_DELAY: "50" },
    reject: false,
    stdin: "ignore",
  });
  children.push(serve);
  const url = await firstLine(serve);

  // The client's own SDK, exporting to the same receiver.
  const provider = new NodeTracerProvider({ resource: resourceFromAttributes({ "service.name": "test-client" }), spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }))] });
  provider.register();
  const client = await httpClient(url);
  const tracer = trace.getTracer("test-client");
  const span = tracer.startSpan("tools/call meta__show_meta", { kind: SpanKind.CLIENT });
  const meta: Record<string, string> = {};
  propagation.inject(trace.setSpan(context.active(), span), meta);
  const result = await client.callTool({ name: "meta__show_meta", arguments: {}, _meta: meta });
  span.end();
  await provider.forceFlush();
  await client.close();
  const traceId = span.spanContext().traceId;

  // The upstream's answer (the _meta it received) comes back as the served result's structured content.
  const upstreamMeta = result.structuredContent as { traceparent?: string };
  expect(upstreamMeta.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));

  serve.kill("SIGTERM");
  expect((await serve).exitCode).toBe(0);
  const spans = () => (existsSync(received) ? readFileSync(received, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as ReceivedSpan) : []);
  await vi.waitFor(() => expect(spans().filter((item) => item.service === "toolexec-under-test").length).toBeGreaterThanOrEqual(3), { timeout: 15_000, interval: 50 });

  const byName = (name: string, service = "toolexec-under-test") => spans().find((item) => item.name === name && item.service === service && item.traceId === traceId);
  const served = byName("tools/call meta__show_meta");
  const executed = byName("execute_tool meta__show_meta");
  const upstreamCall = byName("tools/call show_meta");
  expect(byName("tools/call meta__show_meta", "test-client")?.spanId).toBe(span.spanContext().spanId);
  expect(served).toMatchObject({ kind: 2, parentSpanId: span.spanContext().spanId, attributes: { "mcp.method.name": "tools/call", "network.transport": "tcp" } });
  expect(executed).toMatchObject({ kind: 1, parentSpanId: served!.spanId, attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "meta__show_meta" } });
  expect(upstreamCall).toMatchObject({ kind: 3, parentSpanId: executed!.spanId, attributes: { "mcp.method.name": "tools/call", "network.transport": "pipe" } });
  // What the upstream server received names toolexec's CLIENT span as its parent.
  expect(upstreamMeta.traceparent).toBe(`00-${traceId}-${upstreamCall!.spanId}-01`);
  await provider.shutdown();
});
