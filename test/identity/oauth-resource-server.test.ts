/**
 * `serveHttp` as an OAuth 2.1 resource server against a real authorization server process
 * (test/fixtures/oauth/jwt-issuer.mjs): JWKS found from the issuer's metadata, tokens checked for
 * signature, audience, expiry and scopes; RFC 9728 metadata served and named in every 401.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { serveHttp, type HttpServing } from "../../src/serve.js";
import { startFixture } from "../fixtures/oauth/start-fixture.mjs";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { httpClient } from "../serve/serve-test-helpers.js";

const AUDIENCE = "https://tools.example.test/mcp";
let issuer: { url: string; stop(): Promise<void> };
let executor: Executor;
let serving: HttpServing;

beforeAll(async () => {
  issuer = await startFixture("jwt-issuer.mjs");
  const project = createTempProject({ sharedByFile: true });
  project.useFixtures("echo.mjs");
  project.write("tools.json", { tools: [toolEntry("echo", "node", "echo.mjs", { annotations: { readOnlyHint: true } })] });
  executor = await createExecutor({ root: project.root, logDir: false, watch: false, mcpConfig: false });
  serving = await serveHttp(executor, { oauth: { issuer: issuer.url, audience: AUDIENCE } });
}, 60_000);
afterAll(async () => {
  await serving?.close();
  await executor?.close();
  await issuer?.stop();
});

async function sign(claims: Record<string, unknown>, options: { key?: "main" | "other"; expiresInSeconds?: number } = {}): Promise<string> {
  const response = await fetch(`${issuer.url}/control/sign`, { method: "POST", body: JSON.stringify({ claims, ...options }) });
  return ((await response.json()) as { token: string }).token;
}

const initialize = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
async function post(token?: string) {
  const response = await fetch(serving.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    body: initialize,
  });
  await response.body?.cancel();
  return { status: response.status, challenge: response.headers.get("www-authenticate") };
}

const metadataUrl = () => `${new URL(serving.url).origin}/.well-known/oauth-protected-resource/mcp`;

describe("OAuth resource server", () => {
  it("lets a token with the toolexec:operator scope read /metrics and /readyz, even without a tools scope, and refuses others 403 and none 401", async () => {
    const origin = new URL(serving.url).origin;
    const status = async (route: string, token?: string) => {
      const response = await fetch(origin + route, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
      await response.body?.cancel();
      return response.status;
    };
    const operator = await sign({ sub: "ops", aud: AUDIENCE, scope: "toolexec:operator" });
    const reader = await sign({ sub: "alice", aud: AUDIENCE, scope: "tools:read" });
    // 404 from /metrics: let in, and told metrics are off here (no registry given).
    expect([await status("/metrics", operator), await status("/readyz", operator)]).toEqual([404, 200]);
    expect([await status("/readyz", reader), await status("/readyz")]).toEqual([403, 401]);
    // The operator's token reaches no tool: its one scope names none.
    expect(await post(operator)).toMatchObject({ status: 200 });
  });

  it("serves RFC 9728 protected-resource metadata naming the issuer, at the root and under the endpoint's path", async () => {
    for (const address of [metadataUrl(), `${new URL(serving.url).origin}/.well-known/oauth-protected-resource`]) {
      const response = await fetch(address);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ resource: AUDIENCE, authorization_servers: [issuer.url], bearer_methods_supported: ["header"] });
    }
  });

  it("answers a request without a token 401 with WWW-Authenticate naming the metadata, on loopback too", async () => {
    expect(await post()).toEqual({ status: 401, challenge: `Bearer resource_metadata="${metadataUrl()}"` });
  });

  it("serves a client whose token is signed by the issuer for this audience, as the principal its sub names", async () => {
    const token = await sign({ sub: "alice", aud: AUDIENCE, scope: "tools:read" });
    const client = await httpClient(serving.url, { authorization: `Bearer ${token}` });
    const result = await client.callTool({ name: "echo", arguments: { hello: "alice" } });
    expect(result.structuredContent ?? result.content).toBeTruthy();
    expect(result.isError).toBeFalsy();
    await client.close();
  });

  it("limits a token to its tool: scopes and its tier", async () => {
    const scoped = await httpClient(serving.url, { authorization: `Bearer ${await sign({ sub: "bob", aud: AUDIENCE, scope: "tools:read tool:other_*" })}` });
    const refused = await scoped.callTool({ name: "echo", arguments: {} });
    expect((refused.content as Array<{ text: string }>)[0]!.text).toMatch(/^FORBIDDEN: Forbidden: "echo" is outside the scopes of jwt "bob"/);
    await scoped.close();
  });

  it.each([
    ["the wrong audience", { sub: "alice", aud: "https://other.example.test", scope: "tools:read" }, {}, /'aud' claim/],
    ["an expired token", { sub: "alice", aud: AUDIENCE, scope: "tools:read" }, { expiresInSeconds: -30 }, /expired/],
    ["a token signed by another key", { sub: "alice", aud: AUDIENCE, scope: "tools:read" }, { key: "other" as const }, /not signed by a key of the issuer/],
    ["another issuer", { sub: "alice", aud: AUDIENCE, scope: "tools:read", iss: "https://evil.example.test" }, {}, /'iss' claim/],
  ])("refuses %s with 401 and error=invalid_token", async (_case, claims, options, why) => {
    const { status, challenge } = await post(await sign(claims, options));
    expect(status).toBe(401);
    expect(challenge).toContain(`resource_metadata="${metadataUrl()}"`);
    expect(challenge).toContain(`error="invalid_token"`);
    expect(challenge).toMatch(why);
  });

  it("refuses a valid token without a tools scope with 403 insufficient_scope", async () => {
    const { status, challenge } = await post(await sign({ sub: "alice", aud: AUDIENCE, scope: "profile" }));
    expect(status).toBe(403);
    expect(challenge).toContain(`error="insufficient_scope"`);
  });
});
