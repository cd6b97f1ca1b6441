/**
 * mcp.json's per-user marking (`"oauth": { "perUser": true, "anonymous": … }`): resolved, refused
 * where it cannot work; the principal a login names (`--as`, `{ principal }`) checked; and the token
 * store view of one principal, which reads and writes that principal's record only.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadProjectConfig } from "../../src/config.js";
import { createExecutor } from "../../src/index.js";
import { createFileTokenStore } from "../../src/mcp.js";
import { parsePrincipal, principalTokenStore } from "../../src/plugins/mcp/auth/principal-token-store.js";
import { configErrorText } from "../config/config-test-helpers.js";
import { createTempProject } from "../helpers/temp-project.js";
import { silentLogger } from "../mcp/mcp-test-helpers.js";

const URL = "http://127.0.0.1:9/mcp";

describe("the per-user marking in mcp.json", () => {
  it("is off by default (one shared login) and resolves perUser and anonymous when given", async () => {
    const project = createTempProject({ tools: { tools: [] }, mcp: { mcpServers: { shared: { url: URL }, mine: { url: URL, oauth: { perUser: true } }, open: { url: URL, oauth: { perUser: true, anonymous: "shared" } } } } });
    const [shared, mine, open] = (await loadProjectConfig({ root: project.root })).sections.mcp;
    expect(shared).toMatchObject({ oauth: { grant: "authorization_code" } });
    expect((shared as { oauth: object }).oauth).not.toHaveProperty("perUser");
    expect(mine).toMatchObject({ oauth: { perUser: true } });
    expect((mine as { oauth: object }).oauth).not.toHaveProperty("anonymous");
    expect(open).toMatchObject({ oauth: { perUser: true, anonymous: "shared" } });
  });

  it("refuses anonymous without perUser, perUser with the client_credentials grant, and an unknown anonymous mode", async () => {
    const text = await configErrorText(
      createTempProject({
        tools: { tools: [] },
        mcp: {
          mcpServers: {
            lone: { url: URL, oauth: { anonymous: "shared" } },
            machine: { url: URL, oauth: { perUser: true, grant: "client_credentials", clientId: "svc", clientSecret: "abc" } },
            odd: { url: URL, oauth: { perUser: true, anonymous: "everyone" } },
          },
        },
      }),
    );
    expect(text).toContain('mcpServers.lone.oauth.anonymous: "anonymous" is for a per-user server; set "perUser": true');
    expect(text).toContain('mcpServers.machine.oauth.perUser: A client_credentials login is the client\'s own, not a person\'s: "perUser" needs the authorization_code grant');
    // A wrong value inside `oauth` is reported at `oauth` (its schema is a union with `false`).
    expect(text).toContain("mcpServers.odd.oauth: Invalid input");
  });
});

describe("naming a principal", () => {
  it("reads an API key's id, jwt:<sub>, key:<id> and token:token, and refuses an empty or control-character id", () => {
    expect(parsePrincipal("9f86d081884c7d65")).toEqual({ kind: "key", id: "9f86d081884c7d65" });
    expect(parsePrincipal("jwt:alice@example.com")).toEqual({ kind: "jwt", id: "alice@example.com" });
    expect(parsePrincipal("jwt:a:b")).toEqual({ kind: "jwt", id: "a:b" });
    expect(parsePrincipal("key:abc")).toEqual({ kind: "key", id: "abc" });
    for (const bad of ["", "jwt:", "alice\nprincipal", "x".repeat(257)]) expect(() => parsePrincipal(bad)).toThrow(/Expected a principal/);
  });

  it("keeps each principal's record apart from another's and from the shared one", async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), "toolexec-principal-store-"));
    try {
      const files = createFileTokenStore(folder);
      const alice = principalTokenStore(files, { kind: "key", id: "alice" });
      const aliceJwt = principalTokenStore(files, { kind: "jwt", id: "alice" });
      await alice.save("server", { serverUrl: URL, tokens: { access_token: "alice-token", token_type: "Bearer" } });
      expect(await alice.load("server")).toMatchObject({ tokens: { access_token: "alice-token" } });
      expect(await aliceJwt.load("server")).toBeUndefined();
      expect(await files.load("server")).toBeUndefined();
      await alice.remove("server");
      expect(await alice.load("server")).toBeUndefined();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("startServerLogin with a principal refuses a shared server and a malformed principal", async () => {
    const project = createTempProject({ tools: { tools: [] }, mcp: { mcpServers: { shared: { url: URL }, mine: { url: URL, oauth: { perUser: true } } } } });
    const executor = await createExecutor({ root: project.root, logDir: false, watch: false, logger: silentLogger, mcp: { startupTimeoutMs: 0, tokenStore: { load: async () => undefined, save: async () => undefined, remove: async () => undefined } } });
    try {
      expect(await executor.startServerLogin("shared", { principal: "abc" })).toMatchObject({ ok: false, error: { code: "INVALID_INPUT", message: expect.stringContaining('set "perUser": true') } });
      expect(await executor.startServerLogin("mine", { principal: "jwt:" })).toMatchObject({ ok: false, error: { code: "INVALID_INPUT", message: expect.stringContaining("Expected a principal") } });
      expect(executor.servers().find((server) => server.name === "mine")).toMatchObject({ perUser: true });
    } finally {
      await executor.close();
    }
  });
});
