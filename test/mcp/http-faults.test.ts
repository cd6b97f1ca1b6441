/**
 * Remote answers that are not what MCP promises, and entries that need care, over Streamable HTTP:
 * an HTML page where JSON was due, and a URL that carries its credentials.
 */
import { describe, expect, it } from "vitest";
import { fixtureLog, openProject, startFixtureServer } from "./mcp-test-helpers.js";

describe("Streamable HTTP faults", () => {
  it("reports an HTTP 200 HTML answer as INVALID_OUTPUT, not as an unavailable server", async () => {
    const server = await startFixtureServer("http");
    const { executor } = await openProject({ mcpServers: { remote: { type: "http", url: server.url, timeoutMs: 10_000 } } });
    const result = await executor.callTool("remote__html_page", {});
    expect(!result.ok && result.error).toMatchInlineSnapshot(`
      {
        "code": "INVALID_OUTPUT",
        "details": {
          "contentType": "text/html",
          "server": "remote",
        },
        "message": "Server "remote" answered with text/html, not JSON or an event stream",
      }
    `);
    expect(result.durationMs).toBeLessThan(3_000);
    expect(await executor.callTool("remote__echo", { text: "after" })).toMatchObject({ ok: true, value: "after" });
  });

  it("sends a URL's user:password as an Authorization header and never shows the password", async () => {
    const log = fixtureLog();
    const server = await startFixtureServer("http", { log: log.file });
    const url = server.url.replace("http://", "http://reader:s3cret%21@");
    const { executor } = await openProject({ mcpServers: { remote: { type: "http", url } } });
    expect(await executor.callTool("remote__echo", { text: "in" })).toMatchObject({ ok: true, value: "in" });
    const sent = log.events().find((event) => event.event === "initialize")?.authorization as string;
    expect(Buffer.from(sent.replace(/^Basic /, ""), "base64").toString()).toBe("reader:s3cret!");
    expect(JSON.stringify(executor.servers())).not.toContain("s3cret");
  });
});
