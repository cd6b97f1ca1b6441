/**
 * toolSearch.model before every tool has its vector: a search embeds only the tools that can reach
 * its results, answers as a fully embedded index would, and the rest are embedded in the background.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { similaritiesBeforeEmbedded } from "../../src/plugins/search/model/search-before-embedded.js";
import type { SearchModel } from "../../src/plugins/search/model/search-model.js";
import { rankTools } from "../../src/plugins/search/rank-tools.js";
import { createToolIndex } from "../../src/plugins/search/tool-index.js";
import type { ToolDefinition } from "../../src/plugin.js";
import { createTempProject } from "../helpers/temp-project.js";
import { changingPlugin, tool } from "./search-fixtures.js";
import { SEARCH_MODEL_FOLDER, skipWithoutModel } from "./search-model-folder.js";

const VERBS = ["get", "list", "create", "update", "delete", "search", "send", "archive"];
const NOUNS = ["issue", "file", "message", "invoice", "customer", "event", "container", "ticket"];
const TOOL_COUNT = 160;
const QUERIES = ["update an invoice", "send a message to a customer", "archive the old tickets", "list containers"];

const tools: ToolDefinition[] = Array.from({ length: TOOL_COUNT }, (_, at) => {
  const verb = VERBS[at % VERBS.length] as string;
  const noun = NOUNS[Math.floor(at / VERBS.length) % NOUNS.length] as string;
  return tool(`svc${at % 5}__${verb}_${noun}_${at}`, `${verb} a ${noun} of service ${at % 5}, variant ${at}.`, { [`${noun}Id`]: { type: "string" } });
});

const opened: Executor[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((executor) => executor.close()));
});

describe.skipIf(skipWithoutModel)("toolSearch.model before every tool is embedded", () => {
  it("embeds only what can reach the results, ranks as when all are embedded, and embeds the rest in the background", { timeout: 300_000 }, async () => {
    const { root } = createTempProject({ tools: { tools: [] } });
    const executor = await createExecutor({ root, watch: false, logDir: false, mcpConfig: false, plugins: [changingPlugin(tools).plugin], toolSearch: { model: SEARCH_MODEL_FOLDER } });
    opened.push(executor);
    const passes: Array<{ embedded: number; total: number }> = [];
    let onBackgroundDone: () => void = () => {};
    let background = Number.POSITIVE_INFINITY;
    const backgroundDone = new Promise<void>((resolve) => (onBackgroundDone = resolve));
    executor.on("search:progress", (progress) => {
      if (progress.embedded === progress.total) passes.push(progress);
      if (progress.embedded === progress.total && progress.total === background) onBackgroundDone();
    });
    const early = [await executor.searchTools(QUERIES[0] as string, { limit: 5 })];
    // Before the first answer the passes ran one after another, each embedding the next best tools by their words.
    const firstAnswer = passes.reduce((sum, pass) => sum + pass.total, 0);
    expect(firstAnswer).toBeGreaterThan(0);
    expect(firstAnswer).toBeLessThan(TOOL_COUNT / 2);
    background = TOOL_COUNT - firstAnswer;
    for (const query of QUERIES.slice(1)) early.push(await executor.searchTools(query, { limit: 5 }));
    // Then one pass in the background embeds every other tool.
    await backgroundDone;
    for (const [at, query] of QUERIES.entries()) expect(await executor.searchTools(query, { limit: 5 })).toEqual(early[at]);
  });
});

describe("the bound of a search before every tool is embedded", () => {
  it("embeds past the first batch while a tool left could still reach the results by its cosine", async () => {
    // 40 tools matching the request's word, each a little weaker lexically; the model likes only the 36th.
    const widgets = Array.from({ length: 40 }, (_, at) => tool(`svc__widget_tool_${String.fromCharCode(97 + Math.floor(at / 26), 97 + (at % 26))}`, `Widget ${"filler ".repeat(at)}`.trim()));
    const favourite = widgets[35]!.name;
    const index = createToolIndex();
    index.update(widgets);
    const liked = (text: string) => (text.includes(favourite.slice("svc__".length).replaceAll("_", " ")) ? [1, 0] : [0, 1]);
    const embedded: string[] = [];
    const model: SearchModel = {
      embedTools: async (texts) => (embedded.push(...texts), texts.map((text) => Float32Array.from(liked(text)))),
      embedQuery: async (texts) => texts.map(() => Float32Array.from([1, 0])),
      close: async () => {},
    };
    const early = await similaritiesBeforeEmbedded(index, "widget", 2, model, 0.25);
    expect(early).toBeDefined();
    expect(embedded.length).toBeGreaterThan(32);
    expect(rankTools(index, "widget", 2, { similarities: early, kind: "model", weight: 0.25 })[0]?.name).toBe(favourite);
  });
});
