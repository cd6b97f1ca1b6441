/**
 * The spans of the call pipeline with a real SDK (in-memory exporter): `execute_tool {tool}` per
 * call with its parent, a CLIENT `tools/call {tool}` under it per upstream request with the trace
 * context in `_meta`, a code run's `call_tool` under its `execute_tool code_execution`, error types,
 * and the log's traceId/spanId.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { runOpenAiToolCalls } from "../../src/llm.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { parentSpanId, spanId, startTestTracing, TRACE_META_SERVER, type TestTracing } from "./telemetry-test-helpers.js";

const silent = { debug() {}, info() {}, warn() {}, error() {} };

describe("pipeline spans", () => {
  let tracing: TestTracing;
  let executor: Executor;
  let root: string;

  beforeAll(async () => {
    tracing = startTestTracing();
    const project = createTempProject({ sharedByFile: true });
    project.useFixtures("echo.py");
    project.write("tools.json", { tools: [toolEntry("echo", "python", "echo.py", { parallel: true })], codeExecution: { enabled: true, poolSize: 1 } });
    project.write("mcp.json", { mcpServers: { meta: { command: process.execPath, args: [TRACE_META_SERVER] } } });
    root = project.root;
    executor = await createExecutor({ root, watch: false, logger: silent });
  });
  afterAll(async () => {
    await executor?.close();
    await tracing?.stop();
  });

  it("makes an execute_tool span per call, child of the caller's active span, its ids in the log", async () => {
    tracing.exporter.reset();
    const host = trace.getTracer("host");
    const result = await host.startActiveSpan("host work", async (span) => {
      const answer = await executor.callTool("echo", { text: "hi" }, { toolCallId: "call_42" });
      span.end();
      return answer;
    });
    expect(result.ok).toBe(true);
    const call = tracing.span("execute_tool echo");
    expect(call.kind).toBe(SpanKind.INTERNAL);
    // The scope names the release that made the span, read from the package, not a hard-coded copy.
    expect(call.instrumentationScope).toEqual({ name: "toolexec", version: (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version, schemaUrl: undefined });
    expect(parentSpanId(call)).toBe(spanId(tracing.span("host work")));
    expect(call.attributes).toMatchObject({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "echo", "gen_ai.tool.call.id": "call_42", "toolexec.execution.id": result.executionId, "toolexec.plugin": "script" });
    expect(call.attributes["gen_ai.tool.call.arguments"]).toBeUndefined();
    // The script's process, as semconv's process.* names it.
    expect(call.attributes["process.pid"]).toEqual(expect.any(Number));
    expect(call.attributes["process.executable.name"]).toMatch(/^python/);
    expect(call.attributes["process.exit.code"]).toBe(0);
    await executor.close();
    const lines = readFileSync(path.join(root, ".toolexec", "logs", "executions.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
    const logged = lines.find((line) => line.executionId === result.executionId);
    expect(logged).toMatchObject({ traceId: call.spanContext().traceId, spanId: call.spanContext().spanId });
    executor = await createExecutor({ root, watch: false, logger: silent });
  });

  it("records the model's tool call id when a call comes from an LLM adapter", async () => {
    tracing.exporter.reset();
    await runOpenAiToolCalls(executor, { tool_calls: [{ id: "call_abc", type: "function", function: { name: "echo", arguments: '{"text":"x"}' } }] });
    expect(tracing.span("execute_tool echo").attributes["gen_ai.tool.call.id"]).toBe("call_abc");
  });

  it("puts a CLIENT tools/call span under the call and its context in the upstream request's _meta", async () => {
    tracing.exporter.reset();
    const result = await executor.callTool("meta__show_meta", {});
    expect(result.ok).toBe(true);
    const call = tracing.span("execute_tool meta__show_meta");
    const client = tracing.span("tools/call show_meta");
    expect(client.kind).toBe(SpanKind.CLIENT);
    expect(parentSpanId(client)).toBe(spanId(call));
    expect(client.attributes).toMatchObject({ "mcp.method.name": "tools/call", "gen_ai.tool.name": "show_meta", "gen_ai.operation.name": "execute_tool", "network.transport": "pipe", "toolexec.server.name": "meta" });
    const meta = (result as { value: { traceparent?: string } }).value;
    expect(meta.traceparent).toBe(`00-${client.spanContext().traceId}-${client.spanContext().spanId}-01`);
  });

  it("marks failures with our code as error.type, and an upstream isError as tool_error", async () => {
    tracing.exporter.reset();
    const missing = await executor.callTool("no_such_tool", {});
    expect(missing.ok).toBe(false);
    const span = tracing.span("execute_tool no_such_tool");
    expect(span.attributes["error.type"]).toBe("TOOL_NOT_FOUND");
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    const failed = await executor.callTool("meta__fail", {});
    expect(failed.ok).toBe(false);
    expect(tracing.span("tools/call fail").attributes["error.type"]).toBe("tool_error");
    expect(tracing.span("execute_tool meta__fail").attributes["error.type"]).toBe(failed.ok ? undefined : failed.error.code);
  });

  it("records arguments and results only with the content opt-in, scrubbed like the log", async () => {
    process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT = "true";
    const capturing = await createExecutor({ root, watch: false, logger: silent, logDir: false });
    delete process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT;
    try {
      tracing.exporter.reset();
      await capturing.callTool("echo", { text: "visible", apiKey: "sk-not-for-traces" });
      const attributes = tracing.span("execute_tool echo").attributes;
      expect(JSON.parse(String(attributes["gen_ai.tool.call.arguments"]))).toEqual({ text: "visible", apiKey: "[REDACTED]" });
      expect(String(attributes["gen_ai.tool.call.result"])).toContain("visible");
      expect(String(attributes["gen_ai.tool.call.result"])).not.toContain("sk-not-for-traces");
    } finally {
      await capturing.close();
    }
  });

  it("makes each call_tool of a code run a child of its execute_tool code_execution span", async () => {
    tracing.exporter.reset();
    const result = await executor.callTool("code_execution", { code: 'call_tool("echo", { text: "a" }); call_tool("echo", { text: "b" }); 1' });
    expect(result.ok).toBe(true);
    const run = tracing.span("execute_tool code_execution");
    const subCalls = tracing.spans().filter((span) => span.name === "execute_tool echo");
    expect(subCalls).toHaveLength(2);
    for (const sub of subCalls) {
      expect(parentSpanId(sub)).toBe(spanId(run));
      expect(sub.spanContext().traceId).toBe(run.spanContext().traceId);
    }
  });
});
