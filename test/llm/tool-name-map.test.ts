/** Provider names: accepted names unchanged, others rewritten stably, without collisions, and back. */
import { describe, expect, it } from "vitest";
import { createToolNameMap, PROVIDER_NAME_PATTERNS, toAnthropicTools, toOpenAiChatTools } from "../../src/llm.js";
import { toAiSdkTools } from "../../src/llm/ai-sdk.js";
import { toLangChainTools } from "../../src/llm/langchain.js";

const long = "server.example.com__" + "a".repeat(100);

describe("createToolNameMap", () => {
  it("keeps names a provider accepts", () => {
    const names = createToolNameMap(["weather", "github__create_issue", "a-b"], "openai");
    expect(["weather", "github__create_issue", "a-b"].map((name) => names.toProvider(name))).toEqual(["weather", "github__create_issue", "a-b"]);
  });

  it("rewrites dots and long names into accepted, reversible names", () => {
    const names = createToolNameMap(["docs.site__search", long], "openai");
    expect(names.toProvider("docs.site__search")).toMatchInlineSnapshot(`"docs_site__search_57be7873"`);
    const rewritten = names.toProvider(long)!;
    expect(rewritten).toMatch(PROVIDER_NAME_PATTERNS.openai);
    expect(rewritten.length).toBe(64);
    expect(names.fromProvider(rewritten)).toBe(long);
    expect(names.fromProvider("docs_site__search_57be7873")).toBe("docs.site__search");
    expect(names.fromProvider("made_up")).toBeUndefined();
  });

  it("is stable: a name maps the same whatever else is listed", () => {
    const alone = createToolNameMap(["docs.site__search"], "anthropic").toProvider("docs.site__search");
    const among = createToolNameMap(["x", "docs.site__search", "y.z"], "anthropic").toProvider("docs.site__search");
    expect(among).toBe(alone);
  });

  it("never gives a rewritten name that another tool already has", () => {
    const taken = createToolNameMap(["docs.site__search"], "openai").toProvider("docs.site__search")!;
    const names = createToolNameMap(["docs.site__search", taken], "openai");
    expect(names.toProvider(taken)).toBe(taken);
    expect(names.toProvider("docs.site__search")).not.toBe(taken);
    expect(names.fromProvider(names.toProvider("docs.site__search")!)).toBe("docs.site__search");
  });

  it("follows Gemini's own rule: dots are fine, a leading digit is not", () => {
    const names = createToolNameMap(["docs.site__search", "3d__render"], "gemini");
    expect(names.toProvider("docs.site__search")).toBe("docs.site__search");
    expect(names.toProvider("3d__render")).toMatch(PROVIDER_NAME_PATTERNS.gemini);
  });

  it("is what the tool lists use", () => {
    const tools = [{ name: "docs.site__search", description: "Search.", inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } }];
    expect(toOpenAiChatTools(tools).tools[0]!.function.name).toBe("docs_site__search_57be7873");
    expect(toAnthropicTools(tools).tools[0]!.name).toBe("docs_site__search_57be7873");
  });

  it("gives the AI SDK and LangChain names every provider accepts", () => {
    const tools = ["9lives", "docs.site__search", "a-b"].map((name) => ({ name, description: "d", inputSchema: { type: "object", properties: {} } }));
    const executor = { callTool: () => Promise.reject(new Error("not called")) };
    const names = [...Object.keys(toAiSdkTools(executor, tools).tools), ...toLangChainTools(executor, tools).tools.map((tool) => tool.name)];
    expect(names.every((name) => PROVIDER_NAME_PATTERNS.openai.test(name) && PROVIDER_NAME_PATTERNS.gemini.test(name))).toBe(true);
    expect(names).toContain("a-b");
    expect(names).not.toContain("9lives");
  });
});
