/** A principal's view of the registry: profile filters, renames (and when they give way), descriptions, search-first, scopes and tiers. */
import { describe, expect, it } from "vitest";
import type { ResolvedProfile } from "../../src/config.js";
import { createPrincipalAccess } from "../../src/serve/identity/principal-access.js";
import type { Principal } from "../../src/serve/identity/principal.js";

const tool = (name: string, annotations?: Record<string, boolean>) => ({ name, description: `about ${name}`, inputSchema: { type: "object" }, ...(annotations ? { annotations } : {}) });
const TOOLS = [tool("github__list", { readOnlyHint: true }), tool("github__delete"), tool("notes__search", { readOnlyHint: true }), tool("find_notes", { readOnlyHint: true }), tool("search_tools", { readOnlyHint: true }), tool("call_tool"), tool("report")];
const profile = (settings: Partial<ResolvedProfile>): ResolvedProfile => ({ include: null, exclude: [], rename: {}, descriptions: {}, pinned: [], searchFirst: false, ...settings });
const principal = (settings: Partial<Principal> = {}): Principal => ({ id: "p", kind: "key", scopes: [], tier: "destructive", ...settings });

describe("principal access", () => {
  it("includes by server and pattern, excludes over include, keeps the meta tools", () => {
    const access = createPrincipalAccess({ principal: principal(), profile: { name: "x", settings: profile({ include: ["github", "notes__*"], exclude: ["github__delete"] }) } });
    expect(access.view(TOOLS).map((entry) => entry.name)).toEqual(["github__list", "notes__search", "search_tools", "call_tool"]);
  });

  it("renames and overrides descriptions; a rename onto a name the view already has gives way", () => {
    const clash = createPrincipalAccess({ principal: principal(), profile: { name: "x", settings: profile({ rename: { notes__search: "find_notes" }, descriptions: { notes__search: "Search notes." } }) } });
    const names = clash.view(TOOLS).map((entry) => entry.name);
    expect(names.filter((name) => name === "find_notes")).toHaveLength(1);
    expect(names).toContain("notes__search");
    expect(clash.registryName("find_notes")).toBe("find_notes");
    const clean = createPrincipalAccess({ principal: principal(), profile: { name: "x", settings: profile({ rename: { notes__search: "search_notes" }, descriptions: { notes__search: "Search notes." } }) } });
    expect(clean.view(TOOLS).find((entry) => entry.name === "search_notes")).toMatchObject({ description: "Search notes." });
    expect(clean.registryName("search_notes")).toBe("notes__search");
  });

  it("under searchFirst lists only search_tools, call_tool and the pinned tools", () => {
    const access = createPrincipalAccess({ principal: principal(), profile: { name: "x", settings: profile({ searchFirst: true, pinned: ["report"] }) } });
    expect(access.view(TOOLS).map((entry) => entry.name)).toEqual(["search_tools", "call_tool", "report"]);
  });

  it("scopes and tiers: listed and admitted alike; dispatchers pass, their calls are checked", () => {
    const access = createPrincipalAccess({ principal: principal({ scopes: ["github"], tier: "read" }) });
    expect(access.view(TOOLS).map((entry) => entry.name)).toEqual(["github__list", "search_tools", "call_tool"]);
    const admit = (name: string, plugin = "mcp") => access.admit({ definition: TOOLS.find((entry) => entry.name === name)!, plugin, topLevel: true });
    expect(admit("github__list")).toMatchObject({ ok: true });
    expect(admit("github__delete")).toMatchObject({ ok: false, error: { code: "FORBIDDEN" } });
    expect(admit("notes__search")).toMatchObject({ ok: false, error: { code: "FORBIDDEN", message: expect.stringContaining("outside the scopes") } });
    expect(admit("call_tool", "search")).toMatchObject({ ok: true });
    expect(admit("report", "code")).toMatchObject({ ok: true });
  });
});
