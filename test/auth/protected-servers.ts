/** Starts test/fixtures/oauth/protected-servers.mjs (an authorization server and the MCP server it protects) and stops it. */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPOSITORY = path.join(here, "..", "..");
const FIXTURE = path.join(REPOSITORY, "test", "fixtures", "oauth", "protected-servers.mjs");

export interface ProtectedServers {
  issuer: string;
  mcpUrl: string;
  /** Every access token stops working (the next request gets 401: a silent refresh follows). */
  expireAccessTokens(): Promise<void>;
  /** Refresh tokens are revoked too (the next refresh gets invalid_grant). */
  revokeAll(): Promise<void>;
  stats(): Promise<{ authorizations: number; grants: Record<string, number>; scopes: string[] }>;
  stop(): Promise<void>;
}

/** Resolves once the fixture printed `ready <issuer> <mcp url>`. */
export function startProtectedServers(): Promise<ProtectedServers> {
  const child: ChildProcess = spawn(process.execPath, [FIXTURE], { cwd: REPOSITORY, stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /ready (\S+) (\S+)/.exec(output);
      if (!match) return;
      child.stdout!.off("data", onData);
      const [, issuer, mcpUrl] = match as unknown as [string, string, string];
      const control = async (what: string) => void (await fetch(`${issuer}/control/${what}`, { method: "POST" })).arrayBuffer();
      resolve({
        issuer,
        mcpUrl,
        expireAccessTokens: () => control("expire"),
        revokeAll: () => control("revoke"),
        stats: async () => (await fetch(`${issuer}/control/stats`)).json() as never,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGKILL");
          }),
      });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`protected-servers.mjs exited (${code}) before it was ready:\n${output}`)));
  });
}
