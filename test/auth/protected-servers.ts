/**
 * Starts the OAuth fixtures as two processes and stops them: test/fixtures/oauth/authorization-server.mjs,
 * then test/fixtures/oauth/protected-mcp-server.mjs, which checks tokens against it by introspection.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPOSITORY = path.join(here, "..", "..");
const FIXTURES = path.join(REPOSITORY, "test", "fixtures", "oauth");

export interface ProtectedServers {
  issuer: string;
  mcpUrl: string;
  /** Every access token stops working (the next request gets 401: a silent refresh follows). */
  expireAccessTokens(): Promise<void>;
  /** Refresh tokens are revoked too (the next refresh gets invalid_grant). */
  revokeAll(): Promise<void>;
  stats(): Promise<{ authorizations: number; grants: Record<string, number>; scopes: string[]; introspections: number }>;
  stop(): Promise<void>;
}

interface Started {
  url: string;
  stop(): Promise<void>;
}

/** Runs `node <fixture> ...args`; resolves with the URL of its `ready <url>` line. */
export function startFixture(fixture: string, args: string[] = []): Promise<Started> {
  const child: ChildProcess = spawn(process.execPath, [path.join(FIXTURES, fixture), ...args], { cwd: REPOSITORY, stdio: ["ignore", "pipe", "pipe"] });
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once("exit", () => done());
      child.kill("SIGKILL");
    });
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /ready (\S+)/.exec(output)?.[1];
      if (url === undefined) return;
      child.stdout!.off("data", onData);
      child.off("exit", onExit);
      resolve({ url, stop });
    };
    const onExit = (code: number | null) => reject(new Error(`${fixture} exited (${code}) before it was ready:\n${output}`));
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", onExit);
  });
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
