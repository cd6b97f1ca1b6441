/**
 * POSTs go out refusing redirects (undici then skips cloning each request); one that meets a
 * redirect is sent again as the SDK asked, so the SDK still follows a same-origin redirect.
 */
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { fixtureLog, openProject, startFixtureServer } from "./mcp-test-helpers.js";

const proxies = new Set<http.Server>();
afterEach(async () => {
  for (const proxy of proxies) proxy.closeAllConnections();
  await Promise.all([...proxies].map((proxy) => new Promise((resolve) => proxy.close(resolve))));
  proxies.clear();
});

/** A proxy to `upstream` (an origin) on 127.0.0.1 whose `/old-mcp` answers `307` to its own `/mcp`. */
async function startMovedEndpoint(upstream: string): Promise<string> {
  const proxy = http.createServer((request, response) => {
    if (request.url?.startsWith("/old-mcp")) {
      request.resume();
      response.writeHead(307, { location: "/mcp" }).end();
      return;
    }
    const { host: _host, ...headers } = request.headers;
    const forwarded = http.request(new URL(request.url ?? "/", upstream), { method: request.method, headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    forwarded.on("error", () => response.destroy());
    request.pipe(forwarded);
  });
  proxies.add(proxy);
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(proxy.address() as { port: number }).port}/old-mcp`;
}

describe("Streamable HTTP behind a redirect", () => {
  it("follows a same-origin 307 on its POSTs and runs a call that is not idempotent once", async () => {
    const log = fixtureLog();
    const server = await startFixtureServer("http", { log: log.file });
    const url = await startMovedEndpoint(new URL(server.url).origin);
    const { executor } = await openProject({ mcpServers: { moved: { type: "http", url } } });

    expect(executor.servers()).toMatchObject([{ name: "moved", state: "connected" }]);
    expect(await executor.callTool("moved__echo", { text: "redirected" })).toMatchObject({ ok: true, value: "redirected" });
    expect(await executor.callTool("moved__count", {})).toMatchObject({ ok: true, value: { runs: 1 } });
    expect(log.runs("count")).toBe(1);
  });
});
