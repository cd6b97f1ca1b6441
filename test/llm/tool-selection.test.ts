/** The options every provider's tool list takes: a filter, code mode's listing, description limits, and their checks. */
import { describe, expect, it } from "vitest";
import { CODE_EXECUTION_TOOL_NAME, type ToolInfo } from "../../src/index.js";
import { toAiSdkTools } from "../../src/llm/ai-sdk.js";
import { toLangChainTools } from "../../src/llm/langchain.js";
import { toAnthropicTools, toGeminiTools, toOpenAiChatTools, toOpenAiResponsesTools, type ToolSelectionOptions } from "../../src/llm.js";

/** Never called: listing runs nothing. */
const executor = { callTool: () => Promise.reject(new Error("not called")) };
const schema = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
const tools: ToolInfo[] = [
  { name: "search", description: "Search the web for a query and return the ten best results.", inputSchema: schema },
  { name: "deploy", description: "Deploy 🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀.", inputSchema: schema },
  { name: CODE_EXECUTION_TOOL_NAME, description: "Run code.", inputSchema: schema },
];

/** Each provider's list as [name, description] pairs. */
const PROVIDERS: Record<string, (tools: ToolInfo[], options: ToolSelectionOptions) => Array<[string, string]>> = {
  "OpenAI chat": (list, options) => toOpenAiChatTools(list, options).tools.map((tool) => [tool.function.name, tool.function.description]),
  "OpenAI responses": (list, options) => toOpenAiResponsesTools(list, options).tools.map((tool) => [tool.name, tool.description]),
  Anthropic: (list, options) => toAnthropicTools(list, options).tools.map((tool) => [tool.name, tool.description]),
  "AI SDK": (list, options) => Object.entries(toAiSdkTools(executor, list, options).tools).map(([name, tool]) => [name, tool.description!]),
  LangChain: (list, options) => toLangChainTools(executor, list, options).tools.map((tool) => [tool.name, tool.description]),
  Gemini: (list, options) => (toGeminiTools(list, options).tools[0]?.functionDeclarations ?? []).map((declaration) => [declaration.name, declaration.description]),
};

describe.each(Object.entries(PROVIDERS))("%s tool options", (_provider, list) => {
  it("keeps what the filter keeps", () => {
    expect(list(tools, { filter: (tool) => tool.name !== "deploy" }).map(([name]) => name)).toEqual(["search", CODE_EXECUTION_TOOL_NAME]);
  });

  it("lists only code_execution and the excluded tools in code mode", () => {
    expect(list(tools, { codeMode: true }).map(([name]) => name)).toEqual([CODE_EXECUTION_TOOL_NAME]);
    expect(list(tools, { codeMode: { excludeTools: ["deploy"] } }).map(([name]) => name)).toEqual(["deploy", CODE_EXECUTION_TOOL_NAME]);
    expect(list(tools, { codeMode: false })).toHaveLength(3);
  });

  it("cuts descriptions past the limit", () => {
    const [search, deploy] = list(tools, { maxDescriptionLength: 20 });
    expect(search![1]).toBe("Search the web for …");
    expect(search![1]).toHaveLength(20);
    expect(deploy![1]).toBe("Deploy 🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀…");
    expect([...deploy![1]]).toHaveLength(20);
    expect(list(tools, { maxDescriptionLength: 60 }).map(([, description]) => description)).toEqual(tools.map((tool) => tool.description));
  });

  it("refuses code mode without code_execution, and wrong options, naming each problem", () => {
    expect(() => list(tools.slice(0, 2), { codeMode: true })).toThrowErrorMatchingInlineSnapshot(`[ToolexecError: Invalid tool options: codeMode lists only "code_execution" and the excluded tools, but "code_execution" is not among the tools (enable codeExecution)]`);
    const wrong = { filter: "search", maxDescriptionLength: 0, codeMode: { excludeTools: "deploy", only: true }, limit: 3 } as unknown as ToolSelectionOptions;
    expect(() => list(tools, wrong)).toThrow(expect.objectContaining({ code: "INVALID_OPTIONS" }));
    try {
      list(tools, wrong);
    } catch (error) {
      const [unknown, ...problems] = (error as { details: { problems: string[] } }).details.problems;
      expect(unknown).toMatch(/^Unknown option "limit" at options; expected one of filter, codeMode, maxDescriptionLength/);
      expect(problems).toEqual([
        "Expected a function, got string at options.filter",
        "Expected a whole number of characters from 1, got 0 at options.maxDescriptionLength",
        'Unknown option "only" at options.codeMode; expected excludeTools',
        "Expected a list of tool names, got string at options.codeMode.excludeTools",
      ]);
    }
  });
});

describe("the AI SDK's and LangChain's run options", () => {
  it.each([
    ["AI SDK", toAiSdkTools],
    ["LangChain", toLangChainTools],
  ] as const)("%s: refuses a wrong signal, timeoutMs or onProgress with the selection's problems", (_framework, toTools) => {
    const wrong = { timeoutMs: 0, signal: {}, onProgress: "log", filter: 1 } as unknown as Parameters<typeof toTools>[2];
    expect(() => toTools(executor, tools, wrong)).toThrow(
      expect.objectContaining({
        code: "INVALID_OPTIONS",
        details: {
          problems: [
            "Expected a function, got number at options.filter",
            "Expected an AbortSignal, got object at options.signal",
            "Expected a whole number of milliseconds from 1 to 2147483647, got 0 at options.timeoutMs",
            "Expected a function, got string at options.onProgress",
          ],
        },
      }),
    );
  });
});

describe("OpenAI's own option", () => {
  it("refuses a strict mode it does not know", () => {
    expect(() => toOpenAiChatTools(tools, { strict: true as unknown as false })).toThrowErrorMatchingInlineSnapshot(`[ToolexecError: Invalid tool options: expected "auto" or false, got true at options.strict]`);
  });
});
