/**
 * includeTools / excludeTools / disabledTools: which spelling means what, patterns that match
 * nothing are warned about, and a hot reload of mcp.json applies a new list at once.
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { nextEvent } from "../helpers/next-event.js";
import { CHANGING_SERVER, DELETE, FETCH, LOCK_FILE, openTrusted, SEARCH, toolNames, TOOLS_FILE, trustProject } from "./trust-test-helpers.js";

describe("allow and deny lists", () => {
  it("takes Cline's disabledTools as excludeTools, and excludeTools wins over includeTools", async () => {
    const project = trustProject([SEARCH, FETCH, DELETE], { disabledTools: ["delete_page", "refresh"] });
    const cline = await openTrusted(project);
    const connected = nextEvent(cline, "server:connected");
    expect(await toolNames(cline)).toEqual(["docs__fetch_page", "docs__search"]);
    expect((await connected).tools).toEqual(["docs__search", "docs__fetch_page"]);
    // The default policy, "trust", writes nothing to the project.
    await cline.close();
    expect(existsSync(project.path(LOCK_FILE))).toBe(false);
    const both = await openTrusted(trustProject([SEARCH, FETCH, DELETE], { includeTools: ["*_page"], excludeTools: ["delete_*"] }));
    expect(await toolNames(both)).toEqual(["docs__fetch_page"]);
  });

  it("refuses both spellings at once, with where", async () => {
    const project = trustProject([SEARCH], { excludeTools: ["a"], disabledTools: ["b"] });
    await expect(openTrusted(project)).rejects.toThrow('mcpServers.docs.disabledTools: Give either "excludeTools" or "disabledTools", not both');
  });

  it("warns about a pattern that matches none of the server's tools, once, and lists it in the review", async () => {
    const warnings: string[] = [];
    const project = trustProject([SEARCH, FETCH], { excludeTools: ["delete_pages", "refresh"] });
    const executor = await openTrusted(project, { logger: { debug() {}, info() {}, error() {}, warn: (message) => warnings.push(message) } });
    const warning = await nextEvent(executor, "trust:warning");
    expect(warning).toEqual({ server: "docs", kind: "unmatched-pattern", message: `"excludeTools" pattern "delete_pages" matches none of server "docs"'s tools; check its spelling` });
    expect(warnings.filter((message) => message.includes("delete_pages"))).toHaveLength(1);
    expect(executor.reviewTools().servers[0]!.unmatchedPatterns).toEqual([{ key: "excludeTools", pattern: "delete_pages" }]);
  });

  it("applies an edited list on hot reload", async () => {
    const project = trustProject([SEARCH, FETCH, DELETE]);
    const executor = await openTrusted(project, { watch: true });
    expect(await toolNames(executor)).toContain("docs__delete_page");
    const changed = nextEvent(executor, "tools:changed", (change) => change.removed.includes("docs__delete_page"));
    project.write("mcp.json", { mcpServers: { docs: { command: process.execPath, args: [CHANGING_SERVER, project.path(TOOLS_FILE)], excludeTools: ["delete_*"] } } });
    await changed;
    expect(await toolNames(executor)).toEqual(["docs__fetch_page", "docs__refresh", "docs__search"]);
    expect(await executor.callTool("docs__delete_page", { id: 1 })).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND" } });
  });
});
