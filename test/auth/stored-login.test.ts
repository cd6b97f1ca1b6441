/**
 * A running host and the token store: the record is read once, not at every request, and a login
 * done meanwhile by `toolexec auth login` (another process, the same store) is picked up at the
 * host's next 401, or, for a server that needs login, from the next call of one of its tools.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { createFileTokenStore, type OAuthTokenStore } from "../../src/mcp.js";
import { createTempProject, type TempProject } from "../helpers/temp-project.js";
import { eventually, freePort, silentLogger } from "../mcp/mcp-test-helpers.js";
import { loginWithCli, type CliPlace } from "./oauth-cli.js";
import { startProtectedServers, type ProtectedServers } from "./protected-servers.js";

let servers: ProtectedServers;
let project: TempProject;
let place: CliPlace;
let loads = 0;
const executors: Executor[] = [];

/** The default file store of the CLI's config home, counting its reads. */
function countingStore(): OAuthTokenStore {
  const files = createFileTokenStore(path.join(place.configHome, "toolexec", "oauth"));
  return { ...files, load: (key) => (loads++, files.load(key)) };
}

async function open(): Promise<Executor> {
  const executor = await createExecutor({ root: project.root, toolsConfig: false, watch: false, logger: silentLogger, mcp: { tokenStore: countingStore() } });
  executors.push(executor);
  return executor;
}

async function cliLogin() {
  const run = await loginWithCli("docs", place);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
}

beforeAll(async () => {
  servers = await startProtectedServers();
  project = createTempProject({ sharedByFile: true, mcp: { mcpServers: { docs: { type: "http", url: servers.mcpUrl, oauth: { callbackPort: await freePort() } } } } });
  place = { root: project.root, configHome: mkdtempSync(path.join(os.tmpdir(), "toolexec-config-home-")) };
});

afterAll(async () => {
  await Promise.all(executors.map((executor) => executor.close()));
  await servers?.stop();
  rmSync(place.configHome, { recursive: true, force: true });
});

describe("a running host and tokens stored by another process", () => {
  it("reads the store when the server is first used, not at every request", async () => {
    await cliLogin();
    const executor = await open();
    expect(executor.servers()[0]).toMatchObject({ state: "connected", authorization: "authorized" });
    const before = loads;
    for (let call = 0; call < 10; call++) expect(await executor.callTool("docs__whoami", {})).toMatchObject({ ok: true });
    expect(loads).toBe(before);
  });

  it("takes the tokens of a CLI login done while it runs at its next 401, instead of refreshing the revoked ones", async () => {
    const executor = executors.at(-1)!;
    await servers.revokeAll();
    await cliLogin();
    const { authorizations } = await servers.stats();
    const before = loads;
    expect(await executor.callTool("docs__whoami", {})).toMatchObject({ ok: true, value: "hello from a protected server" });
    expect(loads).toBeGreaterThan(before);
    // No login of its own: the CLI's tokens did.
    expect((await servers.stats()).authorizations).toBe(authorizations);
    expect(executor.servers()[0]).toMatchObject({ state: "connected", authorization: "authorized" });
    await executor.close();
  });

  it("connects a server that needs login when a call finds a CLI login in the store, and runs that call", async () => {
    await servers.revokeAll();
    const executor = await open();
    expect(executor.servers()[0]).toMatchObject({ state: "needs-login" });
    // Nothing new in the store: the call says what to run, and no login starts.
    const grants = (await servers.stats()).grants;
    expect(await executor.callTool("docs__whoami", {})).toMatchObject({ ok: false, error: { code: "AUTH_REQUIRED" } });
    expect((await servers.stats()).grants).toEqual(grants);

    await cliLogin();
    // Not watched in the background: the host finds out when a call arrives, and that call runs.
    expect(executor.servers()[0]).toMatchObject({ state: "needs-login" });
    expect(await executor.callTool("docs__whoami", {})).toMatchObject({ ok: true, value: "hello from a protected server" });
    expect(executor.servers()[0]).toMatchObject({ state: "connected", authorization: "authorized" });
  });
});
