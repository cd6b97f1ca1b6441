/**
 * An untrusted server's OAuth goes through the same address guard as its MCP requests: whatever
 * metadata, registration or token endpoint it points at, a private, loopback or metadata address is
 * refused before a socket is opened. The discovery results are planted in the token store, as a
 * server could have left them after an earlier, innocent-looking discovery.
 */
import { afterAll, describe, expect, it } from "vitest";
import { isToolexecError } from "../../src/index.js";
import { createServerAuthorization } from "../../src/plugins/mcp/auth/server-authorization.js";
import type { OAuthTokenStore, StoredAuthorization } from "../../src/plugins/mcp/auth/token-store.js";
import { createGuardedFetch, type FetchLike } from "../../src/plugins/mcp/guarded-fetch.js";

const SERVER_URL = "https://mcp.example.com/mcp";
/** No name resolves: nothing leaves the machine, and only the guard's own refusals count as refused. */
const guarded = createGuardedFetch(async (hostname) => {
  throw Object.assign(new Error(`${hostname} does not resolve in this test`), { code: "ENOTFOUND" });
});
afterAll(() => guarded.close());

/** The guarded fetch, recording each URL and whether the guard refused it. */
function recordingFetch() {
  const calls: Array<{ url: string; refused: boolean }> = [];
  const fetch: FetchLike = async (url, init) => {
    try {
      const response = await guarded.fetch(url, init);
      calls.push({ url: String(url), refused: false });
      return response;
    } catch (error) {
      calls.push({ url: String(url), refused: isToolexecError(error) && error.code === "SERVER_NOT_ALLOWED" });
      throw error;
    }
  };
  return { fetch, calls };
}

function storeWith(record: Omit<StoredAuthorization, "serverUrl">): OAuthTokenStore {
  let value: StoredAuthorization | undefined = { serverUrl: SERVER_URL, ...record };
  return { load: async () => value, save: async (_key, next) => void (value = next), remove: async () => void (value = undefined) };
}

const metadata = (endpoints: Record<string, string>) => ({
  issuer: "https://auth.example.com",
  authorization_endpoint: "https://auth.example.com/authorize",
  token_endpoint: "https://auth.example.com/token",
  response_types_supported: ["code"],
  code_challenge_methods_supported: ["S256"],
  ...endpoints,
});

async function startLogin(record: Omit<StoredAuthorization, "serverUrl">) {
  const { fetch, calls } = recordingFetch();
  const authorization = createServerAuthorization({ server: "user", serverUrl: SERVER_URL, settings: { grant: "authorization_code", callbackPort: 33418 }, store: storeWith(record), fetch, warn: () => undefined });
  const outcome = await authorization.startLogin().catch((error: unknown) => error);
  return { outcome, calls };
}

/** The protected-resource metadata as discovered, so no request goes to the MCP server itself. */
const resourceMetadata = { resource: SERVER_URL, authorization_servers: ["https://auth.example.com"] };

describe("OAuth endpoints of an untrusted server", () => {
  it("refuses authorization-server metadata on a private address", async () => {
    const { outcome, calls } = await startLogin({ discovery: { authorizationServerUrl: "http://10.0.0.5/", resourceMetadata } });
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((call) => call.refused)).toBe(true);
    expect(calls[0]!.url).toMatch(/^http:\/\/10\.0\.0\.5\/\.well-known\//);
    expect(outcome).toMatchObject({ code: "AUTH_REQUIRED" });
  });

  it("refuses a registration endpoint on a cloud metadata address", async () => {
    const { calls } = await startLogin({
      discovery: { authorizationServerUrl: "https://auth.example.com", resourceMetadata, authorizationServerMetadata: metadata({ registration_endpoint: "http://169.254.169.254/register" }) as never },
    });
    expect(calls).toContainEqual({ url: "http://169.254.169.254/register", refused: true });
    expect(calls.filter((call) => !call.refused)).toEqual([]);
  });

  it("refuses a token endpoint on loopback (a refresh is never sent there)", async () => {
    const { calls } = await startLogin({
      discovery: { authorizationServerUrl: "https://auth.example.com", resourceMetadata, authorizationServerMetadata: metadata({ token_endpoint: "http://127.0.0.1:9/token" }) as never },
      client: { client_id: "registered", issuer: "https://auth.example.com" } as never,
      tokens: { access_token: "old", token_type: "Bearer", refresh_token: "refresh", issuer: "https://auth.example.com" } as never,
    });
    expect(calls).toContainEqual({ url: "http://127.0.0.1:9/token", refused: true });
    expect(calls.filter((call) => !call.refused)).toEqual([]);
  });
});
