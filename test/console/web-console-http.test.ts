/**
 * The console's HTTP side without a browser: off unless enabled, the API refused without the token
 * (401) while the page itself holds no data, the security headers on every answer, no page by a
 * path outside the shipped files, and the JSON endpoints' shapes and errors.
 */
import { describe, expect, it } from "vitest";
import { serveConsoleProject } from "./console-test-helpers.js";

const TOKEN = "console-http-token-93ad";

describe("the web console over HTTP", () => {
  it("is off by default: /console is not served", async () => {
    const { origin } = await serveConsoleProject({});
    const response = await fetch(`${origin}/console`);
    expect(response.status).toBe(404);
    expect((await fetch(`${origin}/console/api/tools`)).status).toBe(404);
  });

  it("answers 401 without the token, and serves the data with it", async () => {
    const { origin } = await serveConsoleProject({ console: {}, token: TOKEN });
    for (const route of ["/console/api/servers", "/console/api/tools", "/console/api/executions", "/console/api/trust"]) {
      const refused = await fetch(`${origin}${route}`);
      expect(refused.status, route).toBe(401);
      expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="toolexec-console"');
      expect(await refused.json()).toEqual({ ok: false, error: { code: "AUTH_FAILED", message: "A bearer credential is required (Authorization: Bearer <key or token>)" } });
    }
    expect((await fetch(`${origin}/console/api/tools`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    const post = await fetch(`${origin}/console/api/call`, { method: "POST", body: JSON.stringify({ tool: "echo", arguments: { message: "x" } }) });
    expect(post.status).toBe(401);
    const tools = await fetch(`${origin}/console/api/tools`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(tools.status).toBe(200);
    expect(((await tools.json()) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name).sort()).toEqual(["docs__fetch_page", "docs__refresh", "echo", "read_result"]);
  });

  it("serves the page without the token (it holds no data), with a strict CSP and no framing", async () => {
    const { origin } = await serveConsoleProject({ console: {}, token: TOKEN });
    const page = await fetch(`${origin}/console`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await page.text();
    expect(html).toContain('<script type="module" src="/console/app.js"></script>');
    // No inline script: every <script> has a src.
    expect([...html.matchAll(/<script\b[^>]*>/g)].every(([tag]) => tag.includes(" src="))).toBe(true);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    const script = await fetch(`${origin}/console/app.js`);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    for (const outside of ["/console/../package.json", "/console/%2e%2e/package.json", "/console/nope.js", "/console/api.js/x"]) {
      expect((await fetch(`${origin}${outside}`)).status, outside).toBe(404);
    }
  });

  it("refuses another site's page (Origin) even with the token", async () => {
    const { origin } = await serveConsoleProject({ console: {}, token: TOKEN });
    const response = await fetch(`${origin}/console/api/tools`, { headers: { authorization: `Bearer ${TOKEN}`, origin: "https://evil.example" } });
    expect(response.status).toBe(403);
  });

  it("answers bad requests with the error envelope", async () => {
    const { origin, executor } = await serveConsoleProject({ console: {} });
    const post = (route: string, body: unknown) => fetch(`${origin}/console/api${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    expect(await (await post("/call", { arguments: {} })).json()).toEqual({ ok: false, error: { code: "INVALID_INPUT", message: 'Expected a JSON object { "tool": "<name>", "arguments": { … } }' } });
    expect((await fetch(`${origin}/console/api/call`)).status).toBe(405);
    expect((await fetch(`${origin}/console/api/nope`)).status).toBe(404);
    expect((await fetch(`${origin}/console/api/executions?limit=0`)).status).toBe(400);
    expect(await (await post("/trust/approve", {})).json()).toEqual({ ok: false, error: { code: "INVALID_INPUT", message: 'Expected a JSON object { "target": "<server or server__tool>" }' } });
    const call = await (await post("/call", { tool: "echo", arguments: { message: "hi" } })).json();
    expect(call).toMatchObject({ ok: true, value: { message: "hi" }, tool: "echo" });
    const denied = await (await post("/trust/revoke", { target: "docs__search" })).json();
    expect(denied).toMatchObject({ ok: true, action: "revoke", tools: ["docs__search"] });
    expect(executor.reviewTools().quarantined).toBe(1);
  });
});
