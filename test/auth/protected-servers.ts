/**
 * Starts the OAuth fixtures as two processes and stops them: test/fixtures/oauth/authorization-server.mjs,
 * then test/fixtures/oauth/protected-mcp-server.mjs, which checks tokens against it by introspection.
 */
import { startFixture } from "../fixtures/oauth/start-fixture.mjs";

export interface ProtectedServers {
  issuer: string;
  mcpUrl: string;
  /** Every access token stops working (the next request gets 401: a silent refresh follows). */
  expireAccessTokens(): Promise<void>;
  /** Refresh tokens are revoked too (the next refresh gets invalid_grant). */
  revokeAll(): Promise<void>;
  stats(): Promise<{ authorizations: number; grants: Record<string, number>; scopes: string[]; introspections: number; clientAuthentications: string[] }>;
  stop(): Promise<void>;
}

/** The authorization server, then the MCP server it protects (given the issuer's URL). */
export async function startProtectedServers(): Promise<ProtectedServers> {
  const authorizationServer = await startFixture("authorization-server.mjs");
  const issuer = authorizationServer.url;
  const mcpServer = await startFixture("protected-mcp-server.mjs", [issuer]).catch(async (error: unknown) => {
    await authorizationServer.stop();
    throw error;
  });
  const control = async (what: string) => void (await fetch(`${issuer}/control/${what}`, { method: "POST" })).arrayBuffer();
  return {
    issuer,
    mcpUrl: mcpServer.url,
    expireAccessTokens: () => control("expire"),
    revokeAll: () => control("revoke"),
    stats: async () => (await fetch(`${issuer}/control/stats`)).json() as never,
    stop: async () => void (await Promise.all([mcpServer.stop(), authorizationServer.stop()])),
  };
}
