/**
 * maxResponseBytes over Streamable HTTP, whether the server answers a POST with JSON or with an
 * SSE stream: the call fails with OUTPUT_TOO_LARGE and the session serves the next call.
 */
import { describe, expect, it } from "vitest";
import { openProject, startFixtureServer } from "./mcp-test-helpers.js";

const servers = [
  { name: "JSON", flags: ["--json"] },
  { name: "an SSE stream", flags: [] },
] as const;

describe.each(servers)("maxResponseBytes over Streamable HTTP answering with $name", ({ flags }) => {
  it("fails an answer past the cap and keeps the session for the next call", async () => {
    const server = await startFixtureServer("http", { flags: [...flags] });
    const { executor } = await openProject({ mcpServers: { remote: { type: "http", url: server.url, maxResponseBytes: 10_000 } } });
    expect(await executor.callTool("remote__big", { bytes: 9_000 })).toMatchObject({ ok: true });
    for (const bytes of [50_000, 500_000]) {
      expect(await executor.callTool("remote__big", { bytes })).toMatchObject({
        ok: false,
        error: { code: "OUTPUT_TOO_LARGE", details: { server: "remote", maxResponseBytes: 10_000 } },
      });
    }
    expect(await executor.callTool("remote__echo", { text: "after" })).toMatchObject({ ok: true, value: "after" });
    expect(executor.servers()).toMatchObject([{ name: "remote", state: "connected" }]);
  });
});
