/** toolSearch.model: a real sentence model (all-MiniLM-L6-v2, int8 ONNX) ranks, caches on disk and reports progress. */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor, type Executor, type ExecutorOptions } from "../../src/index.js";
import { createTempProject } from "../helpers/temp-project.js";
import { CATALOG, changingPlugin, tool } from "./search-fixtures.js";
import { SEARCH_MODEL_FOLDER, skipWithoutModel } from "./search-model-folder.js";

const opened: Executor[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((executor) => executor.close()));
});

async function open(root: string, options: ExecutorOptions) {
  const executor = await createExecutor({ root, watch: false, logDir: false, mcpConfig: false, ...options });
  opened.push(executor);
  return executor;
}

describe.skipIf(skipWithoutModel)("toolSearch.model", () => {
  it("finds a tool that shares no word with the request", async () => {
    const { root } = createTempProject({ tools: { tools: [] } });
    const tools = [...CATALOG.filter((entry) => entry.name !== "forecast__hourly_outlook"), tool("outlook__hourly", "Hourly outlook for a city: temperature, precipitation, wind.", { city: { type: "string" } })];
    const ranked = async (toolSearch: ExecutorOptions["toolSearch"]) => (await (await open(root, { plugins: [changingPlugin(tools).plugin], toolSearch })).searchTools("do I need an umbrella in Oslo tomorrow", { limit: 3 })).map((result) => result.name);
    expect(await ranked({ embeddings: false })).not.toContain("outlook__hourly");
    expect((await ranked({ model: SEARCH_MODEL_FOLDER }))[0]).toBe("outlook__hourly");
  });

  it("embeds each tool once: progress on first use, a second executor reads the disk cache, a changed tool re-embeds alone", async () => {
    const { root } = createTempProject({ tools: { tools: [] } });
    const first = changingPlugin();
    const progress: Array<{ embedded: number; total: number }> = [];
    const executor = await open(root, { plugins: [first.plugin], toolSearch: { model: SEARCH_MODEL_FOLDER } });
    executor.on("search:progress", ({ embedded, total }) => progress.push({ embedded, total }));
    await executor.searchTools("send a message");
    expect(progress.at(-1)).toEqual({ embedded: CATALOG.length, total: CATALOG.length });
    // One vector file for the model, its optimized graph, and the record of its hash.
    expect(readdirSync(path.join(root, ".toolexec", "cache", "tool-search")).sort()).toEqual([expect.stringMatching(/^[0-9a-f]{32}-384\.vectors$/), expect.stringMatching(/^model-[0-9a-f]{16}-[0-9a-f]{16}\.optimized\.onnx$/), "model-hashes.json"]);

    const second = await open(root, { plugins: [changingPlugin().plugin], toolSearch: { model: SEARCH_MODEL_FOLDER } });
    const again: unknown[] = [];
    second.on("search:progress", (event) => again.push(event));
    await second.searchTools("send a message");
    expect(again).toEqual([]);

    progress.length = 0;
    first.setTools(CATALOG.map((entry) => (entry.name === "chat__send_message" ? { ...entry, description: "Post a message to a chat channel." } : entry)));
    await executor.searchTools("send a message");
    expect(progress).toEqual([{ embedded: 1, total: 1 }]);
  });

  it("refuses a folder without a model, naming what is missing", async () => {
    const { root } = createTempProject({ tools: { tools: [] } });
    mkdirSync(path.join(root, "empty-model"));
    writeFileSync(path.join(root, "empty-model", "tokenizer.json"), "{}");
    await expect(open(root, { toolSearch: { model: "empty-model" } })).rejects.toMatchObject({ code: "CONFIG_INVALID", message: expect.stringContaining("no model.onnx (nor onnx/model*.onnx)") });
    await expect(open(root, { toolSearch: { model: "nowhere" } })).rejects.toMatchObject({ code: "CONFIG_INVALID", message: expect.stringContaining("no such folder") });
    expect(existsSync(path.join(root, ".toolexec", "cache"))).toBe(false);
  });
});
