/**
 * Search cannot stall the host: the tokenizer is linear (its old pattern backtracked over runs of
 * capitals: 60,000 of them blocked the host 17–20 s, a 40,000-character description 2 s per
 * search), a query over 2,000 characters is INVALID_INPUT before any work, and a tool's indexed
 * text is bounded per field, so a 5 MB description from a server costs neither indexing nor search.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { splitWords, tokenizeText } from "../../src/plugins/search/tokenize-text.js";
import { measureStall } from "../helpers/event-loop-stall.js";
import { CATALOG, changingPlugin } from "./search-fixtures.js";

const BOUND_MS = 50;
const opened: Executor[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((executor) => executor.close()));
});

async function executorWith(tools = CATALOG) {
  const { plugin, setTools } = changingPlugin(tools);
  const executor = await createExecutor({ toolsConfig: false, mcpConfig: false, watch: false, logDir: false, plugins: [plugin] });
  opened.push(executor);
  return { executor, setTools };
}

describe("the tokenizer", () => {
  it("splits as the backtracking pattern did: camelCase, acronyms, digits", () => {
    expect(splitWords("listPullRequests HTTPServer getURLForID XMLHttpRequest iOS9Device")).toEqual(["list", "pull", "requests", "http", "server", "get", "url", "for", "id", "xml", "http", "request", "i", "os9device"]);
    expect(tokenizeText("listPullRequests: Lists the open pull requests")).toEqual(["list", "pull", "request", "list", "open", "pull", "request"]);
  });

  it("is linear on a long run of capitals", async () => {
    const stall = await measureStall(async () => splitWords(`${"D".repeat(200_000)}ab`), { boundMs: BOUND_MS });
    expect(stall.value).toEqual([`${"d".repeat(199_999)}`, "dab"]);
    expect(stall.attributableMs).toBeLessThanOrEqual(BOUND_MS);
  });
});

describe("search input bounds", () => {
  it("refuses a query over 2,000 characters with INVALID_INPUT naming the limit, at once", async () => {
    const { executor } = await executorWith();
    const stall = await measureStall(() => executor.searchTools("D".repeat(4 * 1024 * 1024)).catch((error: unknown) => error), { boundMs: BOUND_MS });
    expect(stall.value).toMatchObject({ code: "INVALID_INPUT", message: "A search query may be at most 2000 characters; this one has 4194304" });
    expect(stall.attributableMs).toBeLessThanOrEqual(BOUND_MS);
    expect(await executor.searchTools("D".repeat(2000))).toEqual([]);
  });

  it("indexes and searches tools with 5 MB descriptions without stalling", async () => {
    const huge = (word: string) => `${word} ${"DESCRIPTION".repeat(500_000)} ${"x".repeat(40_000)}`;
    const tools = [...CATALOG, { name: "dump__big", description: huge("Dump everything."), inputSchema: { type: "object" } }, { name: "dump__bigger", description: huge("Also dump."), inputSchema: { type: "object" } }];
    const { executor } = await executorWith(tools);
    const stall = await measureStall(() => executor.searchTools("dump everything", { limit: 3 }), { boundMs: BOUND_MS });
    expect(stall.value.map((result) => result.name)).toContain("dump__big");
    expect(stall.attributableMs).toBeLessThanOrEqual(BOUND_MS);
  });
});
