/**
 * The pool of a per-user server's connections, one per principal, against the real OAuth fixtures:
 * principals signed in through the library's login (their own records only), a connection closed
 * after its idle time, the cap (the longest-idle connection gives way; all busy: refused), and a
 * principal without a login answered AUTH_REQUIRED before anything is sent upstream.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadProjectConfig } from "../../src/config.js";
import { createFileTokenStore } from "../../src/mcp.js";
import type { McpServerEntry } from "../../src/plugins/mcp/config/resolve-mcp-server.js";
import { createPrincipalConnections, type PrincipalConnections } from "../../src/plugins/mcp/principal-connections.js";
import { createServerConnection, type ConnectionContext } from "../../src/plugins/mcp/server-connection.js";
import { createStartGate } from "../../src/plugins/mcp/start-gate.js";
import { followAuthorization } from "../auth/oauth-cli.js";
import { startProtectedServers, type ProtectedServers } from "../auth/protected-servers.js";
import { createTempProject } from "../helpers/temp-project.js";
import { silentLogger } from "../mcp/mcp-test-helpers.js";

let servers: ProtectedServers;
let entry: McpServerEntry;
let folder: string;
const pools: PrincipalConnections[] = [];
const ALICE = { kind: "key", id: "alice" };
const BOB = { kind: "key", id: "bob" };

function pool(limits: { idleCloseMs?: number; maxConnections?: number } = {}): PrincipalConnections {
  const context: ConnectionContext = {
    source: "config",
    logger: silentLogger,
    fetch: globalThis.fetch,
    oauth: { store: createFileTokenStore(folder) },
    emit: () => undefined,
    installTimeoutMs: 60_000,
    defaultStart: "eager",
    startGate: createStartGate(),
    waitForInstalls: false,
    forPrincipal: true,
  };
  const made = createPrincipalConnections({ server: "per", store: context.oauth.store, create: (own) => createServerConnection(entry, { ...context, ...own }), onTools: () => undefined, ...limits });
  pools.push(made);
  return made;
}

/** The library's login for `principal`, the scripted browser signing in as its id. */
async function login(principals: PrincipalConnections, principal: { kind: string; id: string }) {
  const authorization = principals.connection(principal).authorization!;
  const started = await authorization.startLogin();
  if (started.authorized) return;
  const redirect = await followAuthorization(`${started.url}&login_hint=${principal.id}`);
  await authorization.finishLogin(redirect.searchParams.get("code")!, redirect.searchParams.get("state") ?? undefined);
}

const connectAs = async (principals: PrincipalConnections, principal: { kind: string; id: string }) => {
  const lease = await principals.lease(principal);
  if (!lease.ok) throw lease.error;
  try {
    const session = await lease.connection.ensureSession(Date.now() + 30_000, new AbortController().signal);
    if (!session.ok) throw new Error(session.failure.message);
    return { connection: lease.connection };
  } finally {
    lease.release();
  }
};

beforeAll(async () => {
  servers = await startProtectedServers();
  const project = createTempProject({ tools: { tools: [] }, mcp: { mcpServers: { per: { type: "http", url: servers.mcpUrl, oauth: { perUser: true } } } } });
  entry = (await loadProjectConfig({ root: project.root })).sections.mcp[0]!;
  folder = mkdtempSync(path.join(os.tmpdir(), "toolexec-principal-pool-"));
  const first = pool();
  await login(first, ALICE);
  await login(first, BOB);
}, 60_000);

afterAll(async () => {
  await Promise.all(pools.map((principals) => principals.close()));
  await servers?.stop();
  rmSync(folder, { recursive: true, force: true });
});

describe("a per-user server's connections", () => {
  it("answers a principal without a login AUTH_REQUIRED with its login command, sending nothing upstream", async () => {
    const introspections = (await servers.stats()).introspections;
    const lease = await pool().lease({ kind: "jwt", id: "carol" });
    expect(lease).toMatchObject({ ok: false, error: { code: "AUTH_REQUIRED", details: { principal: "jwt:carol", login: expect.stringMatching(/auth login per --as jwt:carol$/) } } });
    expect((await servers.stats()).introspections).toBe(introspections);
  });

  it("closes a principal's connection after its idle time", async () => {
    const principals = pool({ idleCloseMs: 100 });
    const { connection } = await connectAs(principals, ALICE);
    expect(connection.liveSession()).toBeDefined();
    await vi.waitFor(() => expect(principals.size()).toBe(0), { timeout: 10_000, interval: 20 });
    expect(connection.liveSession()).toBeUndefined();
  });

  it("forgets a principal's connection at its logout: its session does not outlive its tokens", async () => {
    const principals = pool();
    const { connection } = await connectAs(principals, BOB);
    await principals.forget(BOB);
    expect([principals.size(), connection.liveSession()]).toEqual([0, undefined]);
  });

  it("past the cap, the longest-idle connection gives way; when every one is busy a new principal is refused", async () => {
    const principals = pool({ maxConnections: 1 });
    const { connection: alices } = await connectAs(principals, ALICE);
    const { connection: bobs } = await connectAs(principals, BOB);
    expect(principals.size()).toBe(1);
    expect(alices.liveSession()).toBeUndefined();
    expect(bobs.liveSession()).toBeDefined();

    const held = await principals.lease(BOB);
    expect(held.ok).toBe(true);
    expect(await principals.lease(ALICE)).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE" } });
    if (held.ok) held.release();
    const after = await principals.lease(ALICE);
    expect(after.ok).toBe(true);
    if (after.ok) after.release();
  }, 30_000);
});
