/** tools.json's `profiles` and `identity` keys are a contract: each mistake is an error at its place, with a clear message. */
import { describe, expect, it } from "vitest";
import { formatConfigIssue, isConfigError } from "../../src/index.js";
import { loadProjectConfig } from "../../src/config.js";
import { createTempProject } from "../helpers/temp-project.js";

async function problems(tools: object): Promise<string[]> {
  const project = createTempProject({ tools, mcp: { mcpServers: {} } });
  try {
    await loadProjectConfig({ root: project.root });
    return [];
  } catch (error) {
    if (!isConfigError(error)) throw error;
    return error.issues.map((issue) => formatConfigIssue(issue));
  }
}

describe("profiles and identity in tools.json", () => {
  it("accepts a well-formed profile and identity section", async () => {
    const config = await loadProjectConfig({
      root: createTempProject({
        tools: { tools: [], profiles: { ops: { include: ["github", "notes__*"], exclude: ["github__delete_repo"], rename: { notes__search: "find_notes" }, pinned: ["find_notes"], searchFirst: true } }, identity: { oauth: { issuer: "https://auth.example.com", audience: "https://tools.example.com/mcp" }, limits: { callsPerMinute: 60 } } },
        mcp: { mcpServers: {} },
      }).root,
    });
    expect(config.sections.profiles).toMatchObject({ ops: { include: ["github", "notes__*"], rename: { notes__search: "find_notes" }, searchFirst: true } });
  });

  it.each([
    ["an unknown key in a profile", { bad: { includes: ["x"] } }, /Unknown key "includes".*did you mean "include"/],
    ["a pattern that is not one", { bad: { include: ["git(hub|lab)"] } }, /"git\(hub\|lab\)" is not a tool pattern/],
    ["two tools renamed to one name", { bad: { rename: { a: "same", b: "same" } } }, /Cannot rename "b" to "same": "a" is shown under that name too/],
    ["a rename to a built-in tool's name", { bad: { rename: { a: "code_execution" } } }, /Cannot rename "a" to "code_execution": that is a built-in tool's name/],
    ["a profile name that is not a path segment", { "a/b": {} }, /Profile name "a\/b" must be 1-64 letters/],
  ])("refuses %s", async (_case, profiles, message) => {
    const found = await problems({ tools: [], profiles });
    expect(found.join("\n")).toMatch(message);
  });

  it("refuses an identity section with an issuer that is not a URL or an unknown key", async () => {
    expect((await problems({ tools: [], identity: { oauth: { issuer: "auth.example.com", audience: "x" } } })).join("\n")).toMatch(/issuer/);
    expect((await problems({ tools: [], identity: { limit: {} } })).join("\n")).toMatch(/Unknown key "limit"/);
  });
});
