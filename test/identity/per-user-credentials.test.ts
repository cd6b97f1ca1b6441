/**
 * Per-user upstream credentials with real processes: an authorization server and the MCP server it
 * protects (test/fixtures/oauth, which record the subject and a digest of the token of every call),
 * `toolexec keys create` and `toolexec auth login <server> --as <key id>` (a scripted browser signs
 * in as alice, then bob), and `toolexec serve --http`. Each key holder reaches the upstream with its
 * own token only, directly and from code mode; one without a login gets AUTH_REQUIRED naming the
 * command; 100 interleaved calls never cross; each principal's token refreshes on its own; the log
 * and the served answers carry no token.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { createFileTokenStore } from "../../src/mcp.js";
import { BIN } from "../cli/run-cli.js";
import { createTempProject, type TempProject } from "../helpers/temp-project.js";
import { freePort, silentLogger } from "../mcp/mcp-test-helpers.js";
import { httpClient } from "../serve/serve-test-helpers.js";
import { followAuthorization, runOAuthCli, type CliPlace } from "../auth/oauth-cli.js";
import { startProtectedServers, type ProtectedServers } from "../auth/protected-servers.js";

let servers: ProtectedServers;
let project: TempProject;
let place: CliPlace;
let serve: ChildProcess;
let serveOutput = "";
let url: string;
const keys: Record<"alice" | "bob" | "carol", { id: string; key: string }> = {} as never;
const clients: Client[] = [];
let executor: Executor | undefined;

async function createKey(name: string): Promise<{ id: string; key: string }> {
  const run = await runOAuthCli(["keys", "create", "--name", name, "--tier", "destructive", "--json"], place);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { id: string; key: string };
}

/** `toolexec auth login per --as <id>`, the browser signing in as `person` (the fixture's login_hint). */
async function loginAs(id: string | undefined, person: string, args: string[] = []) {
  let browser: Promise<Response> | undefined;
  const run = await runOAuthCli(["auth", "login", "per", ...(id === undefined ? [] : ["--as", id]), ...args], place, (line) => {
    const link = /^\s+(http\S+authorize\S+)$/.exec(line)?.[1];
    if (link) browser = followAuthorization(`${link}&login_hint=${person}`).then((redirect) => fetch(redirect));
  });
  await browser;
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(run.stdout).toContain(`Logged in to "per"${id === undefined ? "" : ` as ${id}`}; it is connected`);
}

function startServe(): Promise<string> {
  serve = spawn(process.execPath, [BIN, "serve", "--http", "--port", "0", "--root", project.root], { env: { ...process.env, XDG_CONFIG_HOME: place.configHome }, stdio: ["ignore", "pipe", "pipe"] });
  serve.stderr!.on("data", (chunk: Buffer) => (serveOutput += chunk.toString()));
  return new Promise((resolve, reject) => {
    serve.stdout!.on("data", (chunk: Buffer) => {
      serveOutput += chunk.toString();
      const found = /(http:\/\/\S+\/mcp)/.exec(serveOutput)?.[1];
      if (found) resolve(found);
    });
    serve.once("exit", (code) => reject(new Error(`serve exited (${code}):\n${serveOutput}`)));
  });
}

async function clientOf(who: keyof typeof keys): Promise<Client> {
  const client = await httpClient(url, { authorization: `Bearer ${keys[who].key}` });
  clients.push(client);
  return client;
}

const text = (result: Record<string, unknown>) => (result.content as Array<{ text?: string }>).map((part) => part.text ?? "").join("\n");
const errorCode = (result: Record<string, unknown>) => (result._meta as Record<string, unknown> | undefined)?.["toolexec/errorCode"];
const whoami = async (client: Client) => JSON.parse(text(await client.callTool({ name: "per__whoami_subject", arguments: {} }))) as { subject: string; token: string };
const upstreamCalls = async () => (await (await fetch(new URL("/control/calls", servers.mcpUrl))).json()) as Array<{ tool: string; subject: string; token: string }>;

/** Every access and refresh token the token store holds, for the "no token in the log" check. */
function storedTokens(): string[] {
  const folder = path.join(place.configHome, "toolexec", "oauth");
  return readdirSync(folder).flatMap((file) => {
    const tokens = (JSON.parse(readFileSync(path.join(folder, file), "utf8")) as { tokens?: { access_token: string; refresh_token?: string } }).tokens;
    return tokens ? [tokens.access_token, tokens.refresh_token].filter((token): token is string => token !== undefined) : [];
  });
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

beforeAll(async () => {
  servers = await startProtectedServers();
  project = createTempProject({ sharedByFile: true, tools: { tools: [], codeExecution: { enabled: true, poolSize: 1 } }, mcp: { mcpServers: { per: { type: "http", url: servers.mcpUrl, oauth: { perUser: true, callbackPort: await freePort() } } } } });
  place = { root: project.root, configHome: mkdtempSync(path.join(os.tmpdir(), "toolexec-config-home-")) };
  for (const name of ["alice", "bob", "carol"] as const) keys[name] = await createKey(name);
  await loginAs(keys.alice.id, "alice");
  await loginAs(keys.bob.id, "bob");
  url = await startServe();
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await executor?.close();
  serve?.kill("SIGKILL");
  await servers?.stop();
  rmSync(place.configHome, { recursive: true, force: true });
});

describe("a per-user upstream served to several principals", () => {
  it("each principal reaches it with its own token; one without a login gets AUTH_REQUIRED naming the command", async () => {
    const [alice, bob, carol] = [await clientOf("alice"), await clientOf("bob"), await clientOf("carol")];
    const fromAlice = await whoami(alice);
    const fromBob = await whoami(bob);
    expect([fromAlice.subject, fromBob.subject]).toEqual(["alice", "bob"]);
    expect(fromAlice.token).not.toBe(fromBob.token);

    const refused = await carol.callTool({ name: "per__whoami_subject", arguments: {} });
    expect([refused.isError, errorCode(refused)]).toEqual([true, "AUTH_REQUIRED"]);
    expect(text(refused)).toContain(`auth login per --as ${keys.carol.id}`);
    // Nothing was sent upstream for carol: no call ran under another's token.
    expect((await upstreamCalls()).map((call) => call.subject)).toEqual(["alice", "bob"]);
  }, 60_000);

  it("100 interleaved calls of two principals never cross", async () => {
    const [alice, bob] = [await clientOf("alice"), await clientOf("bob")];
    const before = (await upstreamCalls()).length;
    const order = Array.from({ length: 100 }, (_, index) => (index % 2 === 0 ? "alice" : "bob"));
    // Waves of ten calls at once (five each, alternating), under serve's queue bound.
    const answers: Array<{ subject: string }> = [];
    for (let wave = 0; wave < order.length; wave += 10) answers.push(...(await Promise.all(order.slice(wave, wave + 10).map((who) => whoami(who === "alice" ? alice : bob)))));
    expect(answers.map((answer) => answer.subject)).toEqual(order);
    const recorded = (await upstreamCalls()).slice(before);
    expect(recorded).toHaveLength(100);
    expect(recorded.filter((call) => call.subject === "alice")).toHaveLength(50);
    // One token per subject, never shared.
    const subjectsOfToken = new Map<string, Set<string>>();
    for (const call of recorded) subjectsOfToken.set(call.token, (subjectsOfToken.get(call.token) ?? new Set()).add(call.subject));
    expect([...subjectsOfToken.values()].every((subjects) => subjects.size === 1)).toBe(true);
  }, 120_000);

  it("code mode's call_tool runs under the caller's principal and its token", async () => {
    const code = "const r = call_tool('per__whoami_subject', {}); if (!r.ok) throw new Error(r.error.code); const t = await tools.per.whoami_subject({}); [r.value.subject, t.subject]";
    for (const who of ["alice", "bob"] as const) {
      const result = await (await clientOf(who)).callTool({ name: "code_execution", arguments: { code } });
      expect(text(result)).toContain(JSON.stringify([who, who]));
    }
    const carol = await (await clientOf("carol")).callTool({ name: "code_execution", arguments: { code: "const r = call_tool('per__whoami_subject', {}); r.ok ? 'ran' : r.error.code" } });
    expect(text(carol)).toContain("AUTH_REQUIRED");
  }, 60_000);

  it("each principal's token is refreshed on its own when the upstream refuses it", async () => {
    const [alice, bob] = [await clientOf("alice"), await clientOf("bob")];
    const [oldAlice, oldBob] = [await whoami(alice), await whoami(bob)];
    const refreshes = (await servers.stats()).grants.refresh_token ?? 0;
    await servers.expireAccessTokens();
    const [newAlice, newBob] = [await whoami(alice), await whoami(bob)];
    expect([newAlice.subject, newBob.subject]).toEqual(["alice", "bob"]);
    expect(newAlice.token).not.toBe(oldAlice.token);
    expect(newBob.token).not.toBe(oldBob.token);
    expect((await servers.stats()).grants.refresh_token).toBe(refreshes + 2);
  }, 60_000);

  it("neither the execution log nor serve's output carries a token, even when the upstream answers with the caller's", async () => {
    for (const who of ["alice", "bob"] as const) {
      const echoed = await (await clientOf(who)).callTool({ name: "per__echo_authorization", arguments: {} });
      // The caller gets its own token back, as the tool answered; only the log hides it.
      expect(text(echoed)).toMatch(/^Bearer at-/);
    }
    const tokens = storedTokens();
    expect(tokens.length).toBeGreaterThanOrEqual(4);
    const logs = () => filesUnder(path.join(project.root, ".toolexec", "logs")).map((file) => readFileSync(file, "utf8")).join("\n");
    await vi.waitFor(() => expect(logs().split("per__echo_authorization").length).toBeGreaterThanOrEqual(3), { timeout: 15_000, interval: 50 });
    expect(logs()).toContain("per__whoami_subject");
    for (const token of tokens) {
      expect(logs()).not.toContain(token);
      expect(serveOutput).not.toContain(token);
    }
  });

  it("a shared login is no fallback: a call without a principal, and a principal without a login, are refused unless \"anonymous\": \"shared\"", async () => {
    await loginAs(undefined, "admin");
    const tokenStore = createFileTokenStore(path.join(place.configHome, "toolexec", "oauth"));
    executor = await createExecutor({ root: project.root, logDir: false, watch: false, logger: silentLogger, mcp: { tokenStore } });
    expect(await executor.callTool("per__whoami_subject", {})).toMatchObject({ ok: false, error: { code: "AUTH_REQUIRED" } });
    const carol = await (await clientOf("carol")).callTool({ name: "per__whoami_subject", arguments: {} });
    expect(errorCode(carol)).toBe("AUTH_REQUIRED");
    await executor.close();

    const config = JSON.parse(readFileSync(project.path("mcp.json"), "utf8")) as { mcpServers: { per: { oauth: object } } };
    config.mcpServers.per.oauth = { ...config.mcpServers.per.oauth, anonymous: "shared" };
    project.write("shared-mcp.json", config);
    executor = await createExecutor({ root: project.root, mcpConfig: project.path("shared-mcp.json"), logDir: false, watch: false, logger: silentLogger, mcp: { tokenStore } });
    const shared = await executor.callTool("per__whoami_subject", {});
    expect(shared).toMatchObject({ ok: true, value: { subject: "admin" } });
  }, 60_000);
});
