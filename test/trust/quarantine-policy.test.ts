/**
 * `"trust": "quarantine"` (and mcpproxy's `"quarantined": true`): a server is held whole until
 * approved, then pinned; revoking holds it again. Servers added at run time are quarantined unless
 * the host vouches for them.
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { prepareRuntimeServer } from "../../src/plugins/mcp/prepare-runtime-server.js";
import { nextEvent } from "../helpers/next-event.js";
import { CHANGING_SERVER, DELETE, FETCH, openTrusted, readLock, SEARCH, startChangingHttp, toolNames, TOOLS_FILE, trustProject } from "./trust-test-helpers.js";

describe("a quarantined server", () => {
  it("serves nothing until approved, writes nothing before, and is held again when revoked", async () => {
    const project = trustProject([SEARCH, FETCH], { quarantined: true });
    const executor = await openTrusted(project);
    expect(await toolNames(executor)).toEqual([]);
    expect(existsSync(project.path(".toolexec/tools.lock.json"))).toBe(false);
    expect(await executor.callTool("docs__search", {})).toMatchObject({
      ok: false,
      error: { code: "TOOL_QUARANTINED", details: { reason: "server-pending", approve: "npx toolexec tools approve docs" } },
    });
    const review = executor.reviewTools();
    expect(review.servers[0]).toMatchObject({ server: "docs", policy: "quarantine", approval: "pending", connected: true, approve: "npx toolexec tools approve docs" });
    expect(review.quarantined).toBe(3);

    expect(await executor.approveTools("docs")).toMatchObject({ ok: true, tools: ["docs__search", "docs__fetch_page", "docs__refresh"] });
    expect(await toolNames(executor)).toEqual(["docs__fetch_page", "docs__refresh", "docs__search"]);
    expect(readLock(project).servers.docs!.approved).toBe(true);

    const changed = nextEvent(executor, "tools:changed");
    expect(await executor.revokeTools("docs")).toMatchObject({ ok: true, action: "revoke" });
    expect((await changed).removed.sort()).toEqual(["docs__fetch_page", "docs__refresh", "docs__search"]);
    expect(readLock(project).servers.docs!.approved).toBe(false);
    expect(await executor.callTool("docs__search", {})).toMatchObject({ ok: false, error: { code: "TOOL_QUARANTINED", details: { reason: "server-revoked" } } });
    expect(await executor.approveTools("docs__search")).toMatchObject({ ok: false, error: { code: "INVALID_INPUT", message: 'Approval of server "docs" was revoked; approve the server first: npx toolexec tools approve docs' } });
  });

  it("approves one tool of a server never approved, and revokes one tool alone", async () => {
    const project = trustProject([SEARCH, FETCH, DELETE], { trust: "quarantine" });
    const executor = await openTrusted(project);
    expect(await executor.approveTools("docs__search")).toEqual({ ok: true, action: "approve", server: "docs", tools: ["docs__search"] });
    expect(await executor.approveTools("docs__fetch_page")).toMatchObject({ ok: true });
    expect(await toolNames(executor)).toEqual(["docs__fetch_page", "docs__search"]);
    expect(await executor.revokeTools("docs__fetch_page")).toEqual({ ok: true, action: "revoke", server: "docs", tools: ["docs__fetch_page"] });
    expect(await toolNames(executor)).toEqual(["docs__search"]);
    expect(Object.keys(readLock(project).servers.docs!.tools)).toEqual(["search"]);
  });

  it("answers bad targets with a clear error, and a trusted server with the policy to set", async () => {
    const project = trustProject([SEARCH], { trust: "quarantine" });
    const executor = await openTrusted(project);
    expect(await executor.approveTools("nope")).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND", message: 'No MCP server or tool named "nope"', details: { servers: ["docs"] } } });
    expect(await executor.approveTools("docs__nope")).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND", message: 'Server "docs" lists no tool "nope" now' } });
    expect(await executor.approveTools(42 as never)).toMatchObject({ ok: false, error: { code: "INVALID_INPUT", message: "Expected a server name or a tool name (server__tool), got 42" } });

    const trusting = await openTrusted(trustProject([SEARCH]));
    expect(await trusting.approveTools("docs")).toMatchObject({
      ok: false,
      error: { code: "INVALID_INPUT", message: 'Server "docs" has the trust policy "trust": its tools are used as they are, so there is nothing to approve; set "trust": "pin" or "quarantine" on it in mcp.json' },
    });
  });

  it("holds a server at once when a hot reload of mcp.json quarantines it", async () => {
    const project = trustProject([SEARCH]);
    const executor = await openTrusted(project, { watch: true });
    expect(await toolNames(executor)).toEqual(["docs__refresh", "docs__search"]);
    const removed = nextEvent(executor, "tools:changed", (change) => change.removed.includes("docs__search"));
    project.write("mcp.json", { trust: "quarantine", mcpServers: { docs: { command: process.execPath, args: [CHANGING_SERVER, project.path(TOOLS_FILE)] } } });
    await removed;
    expect(await executor.callTool("docs__search", {})).toMatchObject({ ok: false, error: { code: "TOOL_QUARANTINED", details: { reason: "server-pending" } } });
  });

  it("takes mcp.json's top-level trust as every server's default", async () => {
    const project = trustProject([SEARCH], {}, { trust: "quarantine" });
    const executor = await openTrusted(project);
    expect(executor.reviewTools().servers[0]).toMatchObject({ policy: "quarantine", approval: "pending" });
  });
});

describe("servers added at run time", () => {
  const publicAddress = async () => [{ address: "93.184.215.14", family: 4 }];

  it("are quarantined unless trusted; an untrusted entry may not choose its own policy", async () => {
    const context = { root: "/tmp", taken: new Set<string>(), resolveAll: publicAddress };
    const untrusted = await prepareRuntimeServer("user", { url: "https://tools.example.com/mcp" }, {}, context);
    expect(untrusted).toMatchObject({ ok: true, entry: { trust: "quarantine" } });
    expect(await prepareRuntimeServer("user", { url: "https://tools.example.com/mcp", trust: "trust" }, {}, context)).toMatchObject({
      ok: false,
      error: { code: "SERVER_NOT_ALLOWED", message: 'Refused server "user": an untrusted server\'s trust policy is "quarantine"; add it with { trusted: true } to choose "trust"' },
    });
    expect(await prepareRuntimeServer("user", { url: "https://tools.example.com/mcp" }, { trusted: true }, context)).toMatchObject({ ok: true, entry: { trust: "trust" } });
  });

  it("answer with the library call that approves them, not the CLI (another process cannot see them)", async () => {
    const project = trustProject([SEARCH]);
    const executor = await openTrusted(project);
    const upstream = await startChangingHttp(project);
    expect(await executor.addServer("user", { type: "http", url: upstream.url, trust: "quarantine" }, { trusted: true })).toMatchObject({ ok: true });
    expect(await executor.callTool("user__search", {})).toMatchObject({ ok: false, error: { code: "TOOL_QUARANTINED", details: { approve: 'executor.approveTools("user")' } } });
    expect(await executor.approveTools("user")).toMatchObject({ ok: true });
    expect(await executor.callTool("user__search", { phrase: "a" })).toMatchObject({ ok: true });
    // Removed, it is gone, not held.
    expect(await executor.revokeTools("user")).toMatchObject({ ok: true });
    expect(await executor.removeServer("user")).toBe(true);
    expect(await executor.callTool("user__search", {})).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND" } });
  });
});
