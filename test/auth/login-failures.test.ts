/**
 * `toolexec auth login` when the login cannot finish, against the real OAuth fixtures: the redirect
 * port is taken, nobody comes back before `--timeout`, the person declines at the authorization
 * server, or `--timeout` is not a number. Each exits non-zero with a message that says what to do,
 * and no tokens are stored.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "../helpers/temp-project.js";
import { freePort } from "../mcp/mcp-test-helpers.js";
import { runOAuthCli, type CliPlace } from "./oauth-cli.js";
import { startProtectedServers, type ProtectedServers } from "./protected-servers.js";

let servers: ProtectedServers;
let project: TempProject;
let configHome: string;
let callbackPort: number;
const place = (): CliPlace => ({ root: project.root, configHome });
/** The tokens in the store's files (a registered client may be kept; tokens only after a login). */
const storedTokens = () => {
  const folder = path.join(configHome, "toolexec", "oauth");
  let files: string[] = [];
  try {
    files = readdirSync(folder);
  } catch {
    // No folder: nothing stored.
  }
  return files.flatMap((file) => JSON.parse(readFileSync(path.join(folder, file), "utf8")).tokens ?? []);
};

beforeAll(async () => {
  servers = await startProtectedServers();
  configHome = mkdtempSync(path.join(os.tmpdir(), "toolexec-config-home-"));
  callbackPort = await freePort();
  project = createTempProject({ sharedByFile: true, mcp: { mcpServers: { docs: { type: "http", url: servers.mcpUrl, oauth: { callbackPort } } } } });
});

afterAll(async () => {
  await servers?.stop();
  rmSync(configHome, { recursive: true, force: true });
});

describe("toolexec auth login that cannot finish", () => {
  it("says which port is taken and which key moves it", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(callbackPort, "127.0.0.1", resolve));
    try {
      const run = await runOAuthCli(["auth", "login", "docs"], place());
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`Port ${callbackPort} (the redirect URI http://127.0.0.1:${callbackPort}/callback) is in use; free it or set another "oauth.callbackPort" in mcp.json`);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it("gives up after --timeout when nobody comes back, saying how to wait longer", async () => {
    const run = await runOAuthCli(["auth", "login", "docs", "--timeout", "300"], place());
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Open this URL to log in to "docs"');
    expect(run.stderr).toContain("No redirect came back within 300 ms; run the command again (--timeout <ms> waits longer)");
  });

  it("reports the authorization server's refusal when the person declines", async () => {
    let page: Promise<Response> | undefined;
    const run = await runOAuthCli(["auth", "login", "docs"], place(), (line) => {
      const url = /^\s+(http\S+authorize\S+)$/.exec(line)?.[1];
      if (url === undefined) return;
      // The person says no: the authorization server redirects back with an error instead of a code.
      const asked = new URL(url).searchParams;
      const redirect = new URL(asked.get("redirect_uri")!);
      redirect.search = new URLSearchParams({ error: "access_denied", error_description: "The user said no", state: asked.get("state")! }).toString();
      page = fetch(redirect);
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("The authorization server sent no code: access_denied: The user said no");
    expect(await (await page!).text()).toContain("The login did not succeed: see the terminal.");
    expect((await servers.stats()).grants.authorization_code ?? 0).toBe(0);
    expect(storedTokens()).toEqual([]);
    const status = await runOAuthCli(["auth", "status"], place());
    expect(status.stdout).toMatch(/docs\s+needs login/);
  });

  it("refuses a --timeout that is not a whole number of milliseconds as a usage error", async () => {
    const run = await runOAuthCli(["auth", "login", "docs", "--timeout", "5m"], place());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Expected --timeout to be a whole number of milliseconds, got "5m"');
  });
});
