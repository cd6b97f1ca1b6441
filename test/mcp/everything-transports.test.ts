/**
 * server-everything, the reference server, over all three transports through `createExecutor`:
 * tools listed as `server__tool` with their schemas and annotations, results unwrapped, progress
 * forwarded, resources listed and read.
 */
import { describe, expect, it } from "vitest";
import type { ExecutorEvents } from "../../src/index.js";
import { EVERYTHING, openProject, startEverything } from "./mcp-test-helpers.js";

const transports = [
  { name: "stdio", entry: async () => ({ command: process.execPath, args: [EVERYTHING, "stdio"] }) },
  { name: "sse", entry: async () => ({ type: "sse", url: (await startEverything("sse")).url }) },
  { name: "streamable http", entry: async () => ({ type: "http", url: (await startEverything("streamableHttp")).url }) },
] as const;

describe.each(transports)("server-everything over $name", ({ entry }) => {
  it("lists its tools, calls them, forwards progress and reads resources", async () => {
    const { executor } = await openProject({ mcpServers: { everything: await entry() } });

    const tools = await executor.listTools();
    const echo = tools.find((tool) => tool.name === "everything__echo");
    expect(echo).toMatchObject({
      description: "Echoes back the input string",
      inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
      annotations: { title: "Echo Tool", readOnlyHint: true, idempotentHint: true },
    });
    expect(tools.find((tool) => tool.name === "everything__get-structured-content")?.outputSchema).toMatchObject({ type: "object" });
    expect(executor.servers()).toMatchObject([{ name: "everything", state: "connected", serverInfo: { name: "mcp-servers/everything" } }]);

    expect(await executor.callTool("everything__echo", { message: "hi" })).toMatchObject({ ok: true, value: "Echo: hi", content: [{ type: "text", text: "Echo: hi" }] });
    // structuredContent wins over the text part, and passes the executor's outputSchema check.
    expect(await executor.callTool("everything__get-structured-content", { location: "Chicago" })).toMatchObject({
      ok: true,
      value: { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 },
    });
    // The server's own argument checks still apply after ours.
    expect(await executor.callTool("everything__echo", { message: 5 })).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });

    const progress: Array<ExecutorEvents["tool:progress"]> = [];
    executor.on("tool:progress", (event) => progress.push(event));
    const long = await executor.callTool("everything__trigger-long-running-operation", { duration: 0.3, steps: 3 });
    expect(long).toMatchObject({ ok: true, value: "Long running operation completed. Duration: 0.3 seconds, Steps: 3." });
    expect(progress.map(({ progress: step, total, tool }) => ({ step, total, tool }))).toEqual([1, 2, 3].map((step) => ({ step, total: 3, tool: "everything__trigger-long-running-operation" })));

    const resources = await executor.listResources();
    const architecture = resources.find((resource) => resource.uri === "demo://resource/static/document/architecture.md");
    expect(architecture).toMatchObject({ server: "everything", name: "architecture.md", mimeType: "text/markdown" });
    const read = await executor.readResource("everything", architecture!.uri);
    expect(read.ok && read.contents[0]?.text).toMatch(/^# Everything Server/);
    expect(await executor.readResource("nowhere", "x://y")).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND" } });
  });
});
