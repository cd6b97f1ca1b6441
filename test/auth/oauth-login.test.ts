/**
 * OAuth end to end against a real authorization server and the MCP server it protects (two
 * processes on 127.0.0.1, test/fixtures/oauth/): the CLI's login with a scripted browser step, token
 * reuse across runs, silent refresh, a revoked refresh token, step-up, logout, and no token,
 * authorization code or client secret in any log line (the execution log, the host's logger, the CLI's
 * output). One story, in order: each test starts where the one before left off.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createExecutor, type Executor, type ExecutorOptions, type Logger } from "../../src/index.js";
import { createFileTokenStore } from "../../src/mcp.js";
import { createTempProject, type TempProject } from "../helpers/temp-project.js";
import { eventually, freePort } from "../mcp/mcp-test-helpers.js";
import { followAuthorization, loginWithCli, runOAuthCli, type OAuthCliRun } from "./oauth-cli.js";
import { startProtectedServers, type ProtectedServers } from "./protected-servers.js";

let servers: ProtectedServers;
let project: TempProject;
let configHome: string;
let tokenDirectory: string;
/** Every token and code seen in the store, and every line toolexec printed or logged. */
const secretsSeen = new Set<string>();
const printed: string[] = [];
/** The hosts' logger: every line it is given is kept with the CLI's output. */
const recordingLogger = Object.fromEntries(["debug", "info", "warn", "error"].map((level) => [level, (message: string) => printed.push(`${level}: ${message}`)])) as unknown as Logger;
const executors: Executor[] = [];

const place = () => ({ root: project.root, configHome });

/** Run the built CLI with the test's config home; what it prints is kept for the log check. */
async function cli(args: string[]): Promise<OAuthCliRun> {
  const run = await runOAuthCli(args, place());
  printed.push(run.stdout, run.stderr);
  return run;
}

function tokenFiles(): string[] {
  try {
    return readdirSync(tokenDirectory).map((name) => path.join(tokenDirectory, name));
  } catch {
    return [];
  }
}

/** Remember every secret the store holds now. */
function collectSecrets() {
  for (const file of tokenFiles()) {
    const record = JSON.parse(readFileSync(file, "utf8"));
    for (const value of [record.tokens?.access_token, record.tokens?.refresh_token]) if (value) secretsSeen.add(value);
  }
}

/** The execution log's lines, once the record of `tool` is written (the log is flushed on close). */
async function logLines(where: TempProject, tool: string): Promise<string[]> {
  const folder = where.path(".toolexec/logs");
  const read = () => readdirSync(folder).flatMap((name) => readFileSync(path.join(folder, name), "utf8").split("\n").filter(Boolean));
  await eventually(() => existsSync(folder) && read().some((line) => line.includes(tool)), 5_000, `the log record of ${tool}`);
  return read();
}

async function open(options: ExecutorOptions = {}): Promise<Executor> {
  const executor = await createExecutor({ root: project.root, toolsConfig: false, watch: false, logger: recordingLogger, mcp: { tokenStore: createFileTokenStore(tokenDirectory) }, ...options });
  executors.push(executor);
  return executor;
}

beforeAll(async () => {
  servers = await startProtectedServers();
  configHome = mkdtempSync(path.join(os.tmpdir(), "toolexec-config-home-"));
  tokenDirectory = path.join(configHome, "toolexec", "oauth");
  project = createTempProject({ sharedByFile: true, mcp: { mcpServers: { docs: { type: "http", url: servers.mcpUrl, oauth: { callbackPort: await freePort() } } } } });
});

afterAll(async () => {
  await Promise.all(executors.map((executor) => executor.close()));
  await servers?.stop();
  rmSync(configHome, { recursive: true, force: true });
});

describe("OAuth against a local authorization server", () => {
  it("shows a server without a token as needing login, naming the command", async () => {
    const run = await cli(["servers"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/docs\s+needs login\s+http\s+run `npx toolexec auth login docs`/);
  });

  it("logs in with `toolexec auth login`: prints the URL, takes the redirect on 127.0.0.1, stores the tokens 0600 outside the project", async () => {
    const run = await loginWithCli("docs", place());
    printed.push(run.stdout, run.stderr);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Logged in to "docs"; it is connected with 4 tools.');
    const page = run.page!;
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Logged in");

    const files = tokenFiles();
    expect(files).toHaveLength(1);
    expect(statSync(files[0]!).mode & 0o777).toBe(0o600);
    expect(statSync(tokenDirectory).mode & 0o777).toBe(0o700);
    collectSecrets();
    expect(secretsSeen.size).toBe(2);
    for (const file of readdirSync(project.root, { recursive: true }) as string[]) {
      const full = path.join(project.root, file);
      if (statSync(full).isFile()) for (const secret of secretsSeen) expect(readFileSync(full, "utf8")).not.toContain(secret);
    }
    expect((await servers.stats()).authorizations).toBe(1);
    secretsSeen.add(run.redirect!.searchParams.get("code")!);
  });

  it("reuses the stored token in a new run, without a new authorization", async () => {
    const executor = await open();
    expect(executor.servers()[0]).toMatchObject({ state: "connected", authorization: "authorized" });
    const result = await executor.callTool("docs__whoami", {});
    expect(result).toMatchObject({ ok: true, value: "hello from a protected server" });
    expect((await servers.stats()).authorizations).toBe(1);
  });

  it("refreshes an expired access token without the caller noticing", async () => {
    const executor = executors.at(-1)!;
    const before = (await servers.stats()).grants.refresh_token ?? 0;
    await servers.expireAccessTokens();
    const result = await executor.callTool("docs__whoami", {});
    expect(result).toMatchObject({ ok: true, value: "hello from a protected server" });
    const stats = await servers.stats();
    expect(stats.grants.refresh_token).toBe(before + 1);
    expect(stats.authorizations).toBe(1);
    collectSecrets();
  });

  it("answers AUTH_REQUIRED for a scope the token lacks when no host can send a person (step-up needs a login)", async () => {
    const result = await executors.at(-1)!.callTool("docs__admin_action", {});
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("AUTH_REQUIRED");
    expect(result.error.message).toContain("npx toolexec auth login docs");
  });

  it("never writes a token to the execution log, even when a tool answers with one", async () => {
    const executor = executors.at(-1)!;
    const echoed = await executor.callTool("docs__echo_authorization", {});
    expect(echoed.ok).toBe(true);
    // The caller gets the tool's answer as it is; only the log hides it.
    expect(String((echoed as { value: unknown }).value)).toMatch(/^Bearer at-/);
    collectSecrets();
    await executor.close();
    const lines = await logLines(project, "docs__echo_authorization");
    for (const line of [...lines, ...printed]) for (const secret of secretsSeen) expect(line).not.toContain(secret);
  });

  it("goes back to needs login when the refresh token is revoked", async () => {
    await servers.revokeAll();
    const refreshes = (await servers.stats()).grants.refresh_token ?? 0;
    const executor = await open();
    expect(executor.servers()[0]).toMatchObject({ state: "needs-login", authorization: "needs-login", lastError: { code: "AUTH_REQUIRED" } });
    expect((await servers.stats()).grants.refresh_token).toBe(refreshes + 1);
    const result = await executor.callTool("docs__whoami", {});
    expect(result).toMatchObject({ ok: false, error: { code: "AUTH_REQUIRED", message: 'Cannot call "docs__whoami": server "docs" needs login: run `npx toolexec auth login docs`' } });
    expect(tokenFiles().map((file) => JSON.parse(readFileSync(file, "utf8")).tokens)).toEqual([undefined]);

    const status = await cli(["auth", "status"]);
    expect(status.code).toBe(1);
    expect(status.stdout).toMatch(/docs\s+needs login\s+needs-login/);
  });

  it("with onAuthorization, logs in from the host and steps up to a larger scope within the call", async () => {
    const requests: string[] = [];
    let executor!: Executor;
    executor = await open({
      onAuthorization: async ({ server, url }) => {
        requests.push(new URL(url).searchParams.get("scope") ?? "");
        const redirect = await followAuthorization(url);
        secretsSeen.add(redirect.searchParams.get("code")!);
        const finished = await executor.finishServerLogin(server, { code: redirect.searchParams.get("code")!, state: redirect.searchParams.get("state") ?? undefined });
        expect(finished.ok).toBe(true);
      },
    });
    await eventually(() => executor.servers()[0]!.state === "connected", 10_000, "the login the host finished");
    expect(requests).toEqual(["read"]);
    const result = await executor.callTool("docs__admin_action", {}, { timeoutMs: 10_000 });
    expect(result).toMatchObject({ ok: true, value: "admin done" });
    expect(requests.at(-1)).toBe("read admin");
    collectSecrets();
  });

  it("forgets the tokens with `toolexec auth logout`", async () => {
    const run = await cli(["auth", "logout", "docs"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Logged out of "docs"');
    expect(tokenFiles()).toEqual([]);
  });

  it("starts a login through the library and refuses a redirect whose state is not the login's", async () => {
    const executor = await open();
    const started = await executor.startServerLogin("docs");
    if (!started.ok || started.authorized) throw new Error(`Expected a login URL, got ${JSON.stringify(started)}`);
    expect(started.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const redirect = await followAuthorization(started.url);
    const code = redirect.searchParams.get("code")!;
    secretsSeen.add(code);
    const forged = await executor.finishServerLogin("docs", { code, state: "forged" });
    expect(forged).toEqual({
      ok: false,
      error: { code: "AUTH_REQUIRED", message: 'Server "docs": the redirect\'s state does not match the login under way (a stale or forged redirect); start the login again' },
    });
    const finished = await executor.finishServerLogin("docs", { code, state: redirect.searchParams.get("state")! });
    expect(finished).toMatchObject({ ok: true, server: { state: "connected", authorization: "authorized" } });
    expect(await executor.logoutServer("docs")).toBe(true);
    expect(await executor.finishServerLogin("nowhere", { code })).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND" } });
  });

  it("authorizes a client-credentials server without a person, and keeps its token out of the log", async () => {
    vi.stubEnv("OAUTH_TEST_SVC_SECRET", "svc-secret");
    const machine = createTempProject({ mcp: { mcpServers: { billing: { type: "http", url: servers.mcpUrl, oauth: { grant: "client_credentials", clientId: "svc", clientSecret: "${OAUTH_TEST_SVC_SECRET}" } } } } });
    const executor = await open({ root: machine.root });
    vi.unstubAllEnvs();
    expect(executor.servers()[0]).toMatchObject({ state: "connected", authorization: "authorized" });
    const echoed = await executor.callTool("billing__echo_authorization", {});
    const token = String((echoed as { value: unknown }).value).replace(/^Bearer /, "");
    expect(token).toMatch(/^at-/);
    await executor.close();
    const lines = await logLines(machine, "billing__echo_authorization");
    for (const line of lines) {
      expect(line).not.toContain(token);
      expect(line).not.toContain("svc-secret");
    }
    // Nothing of a machine client is written to the token store.
    expect(tokenFiles()).toEqual([]);
    secretsSeen.add(token).add("svc-secret");
    expect((await servers.stats()).clientAuthentications.at(-1)).toBe("client_secret_basic");
  });

  it("authenticates a client-credentials client the way tokenEndpointAuthMethod says", async () => {
    const machine = createTempProject({ mcp: { mcpServers: { billing: { type: "http", url: servers.mcpUrl, oauth: { grant: "client_credentials", clientId: "svc", clientSecret: "svc-secret", tokenEndpointAuthMethod: "client_secret_post" } } } } });
    const executor = await open({ root: machine.root, logDir: false });
    expect(await executor.callTool("billing__whoami", {})).toMatchObject({ ok: true, value: "hello from a protected server" });
    expect((await servers.stats()).clientAuthentications.at(-1)).toBe("client_secret_post");
  });

  it("logs in a pre-registered confidential client, authenticating as tokenEndpointAuthMethod says (else as the server prefers)", async () => {
    const entry = async (tokenEndpointAuthMethod?: string) => ({ type: "http", url: servers.mcpUrl, oauth: { clientId: "app", clientSecret: "app-secret", callbackPort: await freePort(), ...(tokenEndpointAuthMethod ? { tokenEndpointAuthMethod } : {}) } });
    const tracker = createTempProject({ mcp: { mcpServers: { posted: await entry("client_secret_post"), preferred: await entry() } } });
    const executor = await open({ root: tracker.root, logDir: false });
    for (const [server, method] of [["posted", "client_secret_post"], ["preferred", "client_secret_basic"]] as const) {
      const started = await executor.startServerLogin(server);
      if (!started.ok || started.authorized) throw new Error(`Expected a login URL, got ${JSON.stringify(started)}`);
      expect(new URL(started.url).searchParams.get("client_id")).toBe("app");
      const redirect = await followAuthorization(started.url);
      secretsSeen.add(redirect.searchParams.get("code")!);
      expect(await executor.finishServerLogin(server, { code: redirect.searchParams.get("code")!, state: redirect.searchParams.get("state")! })).toMatchObject({ ok: true, server: { state: "connected" } });
      expect((await servers.stats()).clientAuthentications.at(-1)).toBe(method);
      expect(await executor.callTool(`${server}__whoami`, {})).toMatchObject({ ok: true });
      collectSecrets();
      // Both entries are the same client of the same server, so they share one stored record.
      expect(await executor.logoutServer(server)).toBe(true);
    }
    secretsSeen.add("app-secret");
  });

  it("sends client credentials to no authorization server but oauth.issuer, and says so", async () => {
    const machine = createTempProject({ mcp: { mcpServers: { billing: { type: "http", url: servers.mcpUrl, oauth: { grant: "client_credentials", clientId: "svc", clientSecret: "svc-secret", issuer: "https://auth.example.com" } } } } });
    const before = (await servers.stats()).grants.client_credentials ?? 0;
    const executor = await open({ root: machine.root, logDir: false });
    const refused = await executor.callTool("billing__whoami", {});
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.message).toBe(
      `Cannot call "billing__whoami": server "billing" has its client for the authorization server https://auth.example.com, and does not present it to ${servers.issuer} (the one the server names now); the credentials were not sent. If the authorization server has moved, correct "oauth.issuer" in mcp.json (or run \`npx toolexec auth logout billing\` for a stored client)`,
    );
    expect((await servers.stats()).grants.client_credentials ?? 0).toBe(before);
  });

  it("over the whole story, no token, code or secret reached the execution log, the hosts' logger or the CLI's output", async () => {
    await Promise.all(executors.map((executor) => executor.close()));
    const lines = await logLines(project, "docs__admin_action");
    // The story logged (the check looks at something) and saw every kind of secret it checks for.
    expect(printed.some((line) => /^(debug|info|warn|error): /.test(line))).toBe(true);
    expect(secretsSeen.size).toBeGreaterThanOrEqual(8);
    for (const line of [...lines, ...printed]) for (const secret of secretsSeen) expect(line).not.toContain(secret);
  });
});
