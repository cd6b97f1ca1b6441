/** The semantic stage: the embedded word vectors, and a host's own embeddings with vectors cached by tool text. */
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor, type Executor, type ExecutorOptions } from "../../src/index.js";
import { embedWithWordVectors } from "../../src/plugins/search/embed-with-word-vectors.js";
import { WORD_VECTORS_PATH, loadWordVectors } from "../../src/plugins/search/word-vectors.js";
import { createTempProject } from "../helpers/temp-project.js";
import { CATALOG, changingPlugin, tool } from "./search-fixtures.js";

const opened: Executor[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((executor) => executor.close()));
});

async function executorWith(options: ExecutorOptions) {
  const project = createTempProject({ tools: { tools: [] } });
  const executor = await createExecutor({ root: project.root, watch: false, logDir: false, mcpConfig: false, ...options });
  opened.push(executor);
  return executor;
}

const dot = (left: ArrayLike<number>, right: ArrayLike<number>) => Array.from(left).reduce((sum, value, at) => sum + value * (right[at] as number), 0);

/**
 * A deterministic stand-in for an embedding model: one dimension per concept, a text scores on a
 * concept for each of its words. No word is shared between the concept's words here and the tools'
 * own text, so only the vectors can join them.
 */
const CONCEPTS = [
  ["weather", "forecast", "rain", "umbrella", "drizzle"],
  ["mail", "email", "inbox", "letter", "correspondence"],
  ["calendar", "event", "appointment", "diary"],
  ["chat", "message", "channel", "slack"],
];
function conceptVector(text: string): number[] {
  const words = text.toLowerCase().split(/[^a-z]+/);
  return CONCEPTS.map((concept) => words.filter((word) => concept.includes(word)).length + 0.01);
}

function countingEmbeddings() {
  const calls: string[][] = [];
  const embeddings = async (texts: string[]) => {
    calls.push([...texts]);
    return texts.map(conceptVector);
  };
  return { calls, embeddings };
}

describe("the embedded word vectors", () => {
  it("load 50,000 words of 100 dimensions as unit vectors", () => {
    const vectors = loadWordVectors();
    expect(vectors).toMatchObject({ size: 50_000, dimensions: 100 });
    expect(dot(vectors.vector("rain")!, vectors.vector("rain")!)).toBeCloseTo(1, 5);
    expect(vectors.vector("zzqxv")).toBeUndefined();
  });

  it("put texts about the same thing closer than texts about different things", async () => {
    const [rain, forecast, invoice] = await embedWithWordVectors(["will it drizzle tomorrow", "weather forecast for a city", "create an invoice for a customer"]);
    expect(dot(rain!, forecast!)).toBeGreaterThan(dot(rain!, invoice!) + 0.1);
  });

  it("decide between tools the words alone cannot tell apart", async () => {
    // The same name and the same words but one: the request shares no word with either difference.
    const twins = [tool("alpha__get_report", "Get the report on rainfall and temperature."), tool("beta__get_report", "Get the report on invoices and payments.")];
    const request = "get me the report on what we were paid";
    const lexical = await executorWith({ plugins: [changingPlugin(twins).plugin], toolSearch: { embeddings: false } });
    const [first, second] = await lexical.searchTools(request, { limit: 2 });
    expect(first!.score).toBe(second!.score);
    const semantic = await executorWith({ plugins: [changingPlugin(twins).plugin] });
    expect((await semantic.searchTools(request, { limit: 2 })).map((result) => result.name)).toEqual(["beta__get_report", "alpha__get_report"]);
  });

  it("stay within their share of the install size", () => {
    // The whole semantic stage may add at most 40 MB to the package; these vectors are 5.4 MB.
    expect(statSync(WORD_VECTORS_PATH).size).toBeLessThanOrEqual(6 * 1024 * 1024);
  });

  it("keep the ranking stable: same tools, same order, whatever order they are registered in", async () => {
    const forward = await executorWith({ plugins: [changingPlugin(CATALOG).plugin] });
    const backward = await executorWith({ plugins: [changingPlugin([...CATALOG].reverse()).plugin] });
    for (const query of ["remove the event", "list the calendar events of next week", "message the team channel"]) {
      const once = await forward.searchTools(query, { limit: 10 });
      expect(await forward.searchTools(query, { limit: 10 })).toEqual(once);
      expect(await backward.searchTools(query, { limit: 10 })).toEqual(once);
    }
  });

  it("say clearly when the file is not theirs", () => {
    const project = createTempProject();
    const path = join(project.root, "vectors.bin");
    writeFileSync(path, "not vectors at all");
    expect(() => loadWordVectors(path)).toThrow(`${path} is not a toolexec word-vector file (format 1)`);
  });
});

describe("toolSearch.embeddings", () => {
  it("ranks a tool that shares no word with the request by the host's vectors", async () => {
    const { plugin } = changingPlugin();
    const { embeddings } = countingEmbeddings();
    const executor = await executorWith({ plugins: [plugin], toolSearch: { embeddings } });
    const [best] = await executor.searchTools("umbrella drizzle", { limit: 3 });
    expect(best?.name).toBe("forecast__hourly_outlook");
    // Lexical ranking alone finds nothing for those words.
    const lexical = await executorWith({ plugins: [changingPlugin().plugin], toolSearch: { embeddings: false } });
    expect(await lexical.searchTools("umbrella drizzle")).toEqual([]);
  });

  it("embeds each tool's text once, and after a change only the changed tool", async () => {
    const { plugin, setTools } = changingPlugin();
    const { calls, embeddings } = countingEmbeddings();
    const executor = await executorWith({ plugins: [plugin], toolSearch: { embeddings } });
    await executor.searchTools("letter correspondence");
    const toolTexts = calls.flat().filter((text) => text !== "letter correspondence");
    expect(toolTexts).toHaveLength(CATALOG.length);
    calls.length = 0;
    await executor.searchTools("diary appointment");
    expect(calls).toEqual([["diary appointment"]]);
    calls.length = 0;
    setTools(CATALOG.map((tool) => (tool.name === "mail__list_inbox" ? { ...tool, description: "List the newest letters in the inbox." } : tool)));
    await executor.searchTools("letter correspondence");
    expect(calls.flat().sort()).toEqual(["letter correspondence", "list inbox: List the newest letters in the inbox."]);
  });

  it("re-embeds nothing when a tool changes in a way its text does not show", async () => {
    const { plugin, setTools } = changingPlugin();
    const { calls, embeddings } = countingEmbeddings();
    const executor = await executorWith({ plugins: [plugin], toolSearch: { embeddings } });
    await executor.searchTools("letter");
    calls.length = 0;
    setTools(CATALOG.map((tool) => (tool.name === "mail__list_inbox" ? { ...tool, inputSchema: { type: "object", properties: { folder: { type: "string" } } } } : tool)));
    await executor.searchTools("letter");
    expect(calls).toEqual([["letter"]]);
  });

  it("hands the function batches of at most 128 texts", async () => {
    const many = Array.from({ length: 300 }, (_, at) => ({ name: `tool_${at}`, description: `Tool number ${at}.`, inputSchema: { type: "object" } }));
    const { plugin } = changingPlugin(many);
    const { calls, embeddings } = countingEmbeddings();
    const executor = await executorWith({ plugins: [plugin], toolSearch: { embeddings } });
    await executor.searchTools("tool");
    expect(Math.max(...calls.map((batch) => batch.length))).toBe(128);
    expect(calls.flat()).toHaveLength(301);
  });

  it("rejects with PLUGIN_FAILED when the function throws or returns the wrong shape", async () => {
    const cases: Array<[(texts: string[]) => Promise<number[][]>, string]> = [
      [async () => Promise.reject(new Error("model offline")), "toolSearch.embeddings threw: model offline"],
      [async () => [], "toolSearch.embeddings returned 0 vectors; expected an array of 1 vectors"],
      [async (texts) => texts.map(() => [Number.NaN, 1]), "toolSearch.embeddings returned a vector with a non-finite number at [0]"],
      [async (texts) => texts.map((_, at) => (at === 0 ? [1, 2] : [1, 2, 3])), "toolSearch.embeddings returned a vector of 3 numbers at [1]; expected 2"],
    ];
    for (const [embeddings, message] of cases) {
      const { plugin } = changingPlugin();
      const executor = await executorWith({ plugins: [plugin], toolSearch: { embeddings } });
      await expect(executor.searchTools("weather")).rejects.toMatchObject({ code: "PLUGIN_FAILED", message });
    }
  });

  it("counts as much as toolSearch.semanticWeight says", async () => {
    const tools = [tool("alpha__list_records", "List the records of a table."), tool("beta__list_outlook", "List the weather outlook for a region.")];
    const request = "list the records: do I need an umbrella";
    const ranked = async (semanticWeight?: number) => {
      const executor = await executorWith({ plugins: [changingPlugin(tools).plugin], toolSearch: { embeddings: countingEmbeddings().embeddings, semanticWeight } });
      return (await executor.searchTools(request, { limit: 2 })).map((result) => result.name);
    };
    // By default the words decide; at full weight the host's vectors can overrule them.
    expect(await ranked()).toEqual(["alpha__list_records", "beta__list_outlook"]);
    expect(await ranked(1)).toEqual(["beta__list_outlook", "alpha__list_records"]);
  });

  it("is checked as an option", async () => {
    await expect(executorWith({ toolSearch: { embeddings: "openai" as never } })).rejects.toMatchObject({ code: "INVALID_OPTIONS" });
    await expect(executorWith({ toolSearch: { semanticWeight: 2 } })).rejects.toMatchObject({ code: "INVALID_OPTIONS" });
  });
});
