/**
 * The lock file: diff-friendly and stable, written atomically, never overwritten when damaged, and
 * merged with what another process wrote in between.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatTrustLock } from "../../src/plugins/mcp/trust/trust-lock-file.js";
import { fingerprintTool } from "../../src/plugins/mcp/trust/tool-fingerprint.js";
import { FETCH, LOCK_FILE, openTrusted, readLock, SEARCH, toolNames, trustProject } from "./trust-test-helpers.js";

describe("the lock file", () => {
  it("has sorted keys, one entry per tool, a final newline, and the same text for the same tools in any order", async () => {
    const project = trustProject([FETCH, SEARCH], { trust: "pin" });
    const executor = await openTrusted(project);
    await executor.close();
    const text = readFileSync(project.path(LOCK_FILE), "utf8");
    expect(text.endsWith("}\n")).toBe(true);
    expect(Object.keys(JSON.parse(text))).toEqual(["servers", "version"]);
    const tools = readLock(project).servers.docs!.tools;
    expect(Object.keys(tools)).toEqual(["fetch_page", "refresh", "search"]);
    expect(Object.keys(tools.search!)).toEqual(["description", "fingerprint", "inputSchema"]);
    expect(tools.search!.fingerprint).toMatch(/^sha256-[0-9a-f]{64}$/);
    // No temp file is left beside it.
    expect(readdirSync(project.path(".toolexec"))).toEqual(["tools.lock.json"]);

    const reordered = trustProject([SEARCH, FETCH], { trust: "pin" });
    await (await openTrusted(reordered)).close();
    expect(readFileSync(reordered.path(LOCK_FILE), "utf8")).toBe(text);
  });

  it("fingerprints key order away, but not a change of meaning", () => {
    const definition = (inputSchema: Record<string, unknown>) => ({ server: "docs", tool: "search", definition: { name: "docs__search", description: "Search.", inputSchema } });
    const a = fingerprintTool(definition({ type: "object", properties: { q: { type: "string" } } }));
    const b = fingerprintTool(definition({ properties: { q: { type: "string" } }, type: "object" }));
    const c = fingerprintTool(definition({ type: "object", properties: { q: { type: "number" } } }));
    expect(a).toEqual(b);
    expect(c.fingerprint).not.toBe(a.fingerprint);
    expect(c.description).toBe(a.description);
    expect(formatTrustLock(new Map([["docs", { approved: true, tools: new Map([["search", a]]) }]]))).toBe(
      `${JSON.stringify({ servers: { docs: { approved: true, tools: { search: { description: "Search.", fingerprint: a.fingerprint, inputSchema: a.inputSchema } } } }, version: 1 }, null, 2)}\n`,
    );
  });

  it("keeps what another process approved in between when it writes", async () => {
    const project = trustProject([SEARCH, FETCH], { trust: "quarantine" });
    const executor = await openTrusted(project);
    expect(await executor.approveTools("docs__search")).toMatchObject({ ok: true });
    // Another process (a teammate's `tools approve`) adds a server of its own to the file.
    const lock = readLock(project);
    writeFileSync(project.path(LOCK_FILE), JSON.stringify({ ...lock, servers: { ...lock.servers, other: { approved: true, tools: {} } } }));
    expect(await executor.approveTools("docs__fetch_page")).toMatchObject({ ok: true });
    expect(Object.keys(readLock(project).servers).sort()).toEqual(["docs", "other"]);
    expect(Object.keys(readLock(project).servers.docs!.tools).sort()).toEqual(["fetch_page", "search"]);
  });

  it("when it cannot be written, the decision is refused and nothing is approved", async () => {
    const project = trustProject([SEARCH], { trust: "quarantine" });
    const executor = await openTrusted(project, { logger: { debug() {}, info() {}, warn() {}, error() {} } });
    // A file where the lock file's folder should be: reading and writing it fail.
    writeFileSync(project.path(".toolexec"), "not a folder");
    expect(await executor.approveTools("docs")).toMatchObject({ ok: false, error: { code: "CONFIG_INVALID", message: expect.stringContaining("Cannot read") } });
    expect(await toolNames(executor)).toEqual([]);
    expect(await executor.callTool("docs__search", {})).toMatchObject({ ok: false, error: { code: "TOOL_QUARANTINED" } });
  });

  it("when damaged, holds every pinned tool, refuses decisions, and is left as it is", async () => {
    const project = trustProject([SEARCH], { trust: "pin" });
    project.write(LOCK_FILE, "{ not json");
    const errors: string[] = [];
    const executor = await openTrusted(project, { logger: { debug() {}, info() {}, warn() {}, error: (message) => errors.push(message) } });
    expect(await toolNames(executor)).toEqual([]);
    expect(errors.join("\n")).toContain(".toolexec/tools.lock.json is not valid JSON");
    expect(await executor.approveTools("docs")).toMatchObject({ ok: false, error: { code: "CONFIG_INVALID", message: expect.stringContaining("fix it or delete it") } });
    await executor.close();
    expect(readFileSync(project.path(LOCK_FILE), "utf8")).toBe("{ not json");
  });
});
