/**
 * `/metrics`, `/healthz` and `/readyz` on a served executor: the Prometheus text parses and counts
 * the calls made, the routes sit behind the MCP endpoint's token, and readiness follows the servers.
 */
import { metrics } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { createMetricsRegistry, serveHttp, type HttpServing } from "../../src/serve.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { httpClient } from "../serve/serve-test-helpers.js";
import { parsePrometheusText, type Sample } from "./prometheus-exposition.js";
import { TRACE_META_SERVER } from "./telemetry-test-helpers.js";

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const TOKEN = "operator routes token";
const auth = { authorization: `Bearer ${TOKEN}` };
const base = (serving: HttpServing) => serving.url.replace(/\/mcp$/, "");
const find = (samples: Sample[], name: string, labels: Record<string, string>) => samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));

describe("operator routes", () => {
  let executor: Executor;
  let serving: HttpServing;

  beforeAll(async () => {
    const registry = createMetricsRegistry();
    metrics.setGlobalMeterProvider(registry.meterProvider);
    const project = createTempProject({ sharedByFile: true });
    project.useFixtures("echo.py");
    project.write("tools.json", { tools: [toolEntry("echo", "python", "echo.py", { parallel: true })] });
    project.write("mcp.json", { mcpServers: { meta: { command: process.execPath, args: [TRACE_META_SERVER] } } });
    executor = await createExecutor({ root: project.root, watch: false, logger: silent });
    serving = await serveHttp(executor, { token: TOKEN, metrics: registry });
  });
  afterAll(async () => {
    await serving?.close();
    await executor?.close();
    metrics.disable();
  });

  it("renders the calls served as Prometheus text that parses, with the MCP and toolexec metrics", async () => {
    const client = await httpClient(serving.url, auth);
    await client.callTool({ name: "echo", arguments: { text: "hi" } });
    await client.callTool({ name: "meta__show_meta", arguments: {} });
    await client.callTool({ name: "nope", arguments: {} });
    await client.close();
    const response = await fetch(`${base(serving)}/metrics`, { headers: auth });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const samples = parsePrometheusText(await response.text());
    expect(find(samples, "toolexec_tool_calls_total", { gen_ai_tool_name: "echo", toolexec_call_outcome: "ok" })[0]?.value).toBe(1);
    // A name no tool has is counted as _OTHER: callers cannot grow the series.
    expect(find(samples, "toolexec_tool_calls_total", { gen_ai_tool_name: "_OTHER", toolexec_call_outcome: "error", error_type: "TOOL_NOT_FOUND" })[0]?.value).toBe(1);
    expect(find(samples, "mcp_server_operation_duration_seconds_count", { mcp_method_name: "tools/call", gen_ai_tool_name: "echo", network_transport: "tcp" })[0]?.value).toBe(1);
    expect(find(samples, "mcp_client_operation_duration_seconds_count", { mcp_method_name: "tools/call", gen_ai_tool_name: "show_meta", network_transport: "pipe" })[0]?.value).toBe(1);
    expect(find(samples, "toolexec_tool_duration_seconds_bucket", { gen_ai_tool_name: "echo", le: "+Inf" })[0]?.value).toBe(1);
    expect(find(samples, "toolexec_server_state", { toolexec_server_name: "meta", toolexec_server_state: "connected" })[0]?.value).toBe(1);
    expect(find(samples, "toolexec_calls_queued", {})[0]?.value).toBe(0);
  });

  it("answers /healthz and /readyz with JSON, and all three only with the MCP endpoint's token", async () => {
    for (const path of ["/metrics", "/healthz", "/readyz"]) expect((await fetch(`${base(serving)}${path}`)).status).toBe(401);
    const health = await fetch(`${base(serving)}/healthz`, { headers: auth });
    expect([health.status, ((await health.json()) as { status: string }).status]).toEqual([200, "ok"]);
    const ready = await fetch(`${base(serving)}/readyz`, { headers: auth });
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, reasons: [], config: { state: "ok" }, servers: [{ name: "meta", state: "connected", tools: 2 }] });
    const posted = await fetch(`${base(serving)}/readyz`, { method: "POST", headers: auth });
    expect([posted.status, posted.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
  });
});

describe("readiness", () => {
  it("is 503 with the reason while an MCP server is still starting, as `servers()` shows it", async () => {
    const project = createTempProject({ tools: { tools: [] } });
    // A server that never answers initialize: it stays `connecting` past the short start-up wait.
    project.write("mcp.json", { mcpServers: { mute: { command: process.execPath, args: ["-e", "setInterval(() => {}, 1000); process.stdin.resume()"] } } });
    const executor = await createExecutor({ root: project.root, watch: false, logger: silent, mcp: { startupTimeoutMs: 50 } });
    const serving = await serveHttp(executor);
    try {
      const response = await fetch(`${base(serving)}/readyz`);
      const body = await response.json();
      expect(response.status).toBe(503);
      expect(body).toMatchObject({ ready: false, reasons: ['MCP server "mute" is connecting'], servers: [{ name: "mute", state: "connecting" }] });
      expect(executor.servers()[0]?.state).toBe("connecting");
    } finally {
      await serving.close();
      await executor.close();
    }
  });
});
