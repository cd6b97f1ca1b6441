/**
 * The word vectors' own semantic index gives what the generic index over `embedWithWordVectors`
 * gives — every tool's similarity, their mean and their best, to the last bit — built at once, in
 * background slices, and after tools leave, change and come (slots reused), followed change by change.
 * The fused ranking reads nothing else of the stage, so equal numbers here are equal rankings. The
 * same holds when the index keeps the word-vector ranks of the words it scanned (as the search
 * engine's does) and the word vectors add those up instead of scanning the texts again.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultVectorsRankOfWord, embedWithWordVectors } from "../../src/plugins/search/embed-with-word-vectors.js";
import { createSemanticIndex, type SemanticIndex } from "../../src/plugins/search/semantic-index.js";
import { createToolIndex, type IndexStatistics } from "../../src/plugins/search/tool-index.js";
import { createWordVectorIndex } from "../../src/plugins/search/word-vector-index.js";
import { startSearchEngine } from "../../src/plugins/search/search-engine.js";
import { resolveToolSearchSettings } from "../../src/plugins/search/config/tool-search-config.js";
import type { ToolDefinition } from "../../src/plugin.js";
import { CATALOG, tool } from "./search-fixtures.js";

const VERBS = ["get", "list", "create", "update", "delete", "search", "send", "archive", "forecast", "convert"];
const NOUNS = ["issue", "invoice", "customer", "weather", "calendarEvent", "pullRequest", "spreadsheet", "mortgage", "café", "Grüße"];
const WORDS = ["project", "folder", "channel", "status", "priority", "cluster", "database", "rain", "HTTPServer", "naïve"];

/** Seeded tools with camelCase, capitals, non-ASCII words, numbers and words outside the vocabulary. */
function catalog(count: number, seed: number): ToolDefinition[] {
  let state = seed;
  const next = () => ((state = (state * 1664525 + 1013904223) >>> 0), state / 2 ** 32);
  const pick = (list: readonly string[]) => list[Math.floor(next() * list.length)] as string;
  return Array.from({ length: count }, (_, at) => {
    const extra = Array.from({ length: 1 + Math.floor(next() * 8) }, () => pick(WORDS)).join(" ");
    return tool(`svc${at % 13}__${pick(VERBS)}${pick(NOUNS)}_${at}`, `${pick(VERBS)} the ${pick(NOUNS)} of ${extra}. Then zqxj ${pick(WORDS)}.`, { [`${pick(NOUNS)}Id`]: { type: "string" } });
  });
}

const QUERIES = ["create an invoice for the customer", "will it rain tomorrow", "Grüße an das Café", "listPullRequests", "zqxj", "the of and", ""];

/** Both indexes' numbers for every query, the similarities by tool name (slots may differ). */
async function numbers(index: IndexStatistics, semantic: SemanticIndex): Promise<unknown[]> {
  const all: unknown[] = [];
  for (const query of QUERIES) {
    const { bySlot, mean, best } = await semantic.similarities(index, query);
    all.push({ query, mean, best, byName: [...index.documents()].map((document) => [document.name, bySlot[document.slot]]) });
  }
  return all;
}

const generic = () => createSemanticIndex(embedWithWordVectors);

describe("the word-vector index", () => {
  it.each([false, true])("gives the generic index's similarities, mean and best to the last bit (word ranks kept: %s)", async (keepRanks) => {
    const index = createToolIndex(keepRanks ? { rankOfWord: defaultVectorsRankOfWord } : {});
    index.update([...CATALOG, ...catalog(2_000, 11)]);
    const own = createWordVectorIndex();
    // toEqual tells 0 from -0 and compares numbers exactly: a last-bit difference fails.
    expect(await numbers(index, own)).toEqual(await numbers(index, generic()));
  });

  it.each([false, true])("follows removed, changed and added tools (slots reused) as an index built afresh (word ranks kept: %s)", async (keepRanks) => {
    let tools = [...CATALOG, ...catalog(600, 5)];
    const index = createToolIndex(keepRanks ? { rankOfWord: defaultVectorsRankOfWord } : {});
    index.update(tools);
    const followed = createWordVectorIndex();
    await followed.update(index);
    for (let round = 0; round < 4; round++) {
      tools = tools.filter((_, at) => at % (7 + round) !== 3);
      tools = tools.map((definition, at) => (at % 11 === round ? { ...definition, description: `${definition.description} Forecasts rain ${round}.` } : definition));
      tools.push(...catalog(30, 100 + round).map((definition) => ({ ...definition, name: `new${round}_${definition.name}` })));
      index.update(tools);
      expect(followed.ready(index)).toBe(false);
      expect(await numbers(index, followed)).toEqual(await numbers(index, generic()));
    }
  });

  it("a background pass overtaken by a change still ends with the current tools' numbers", { timeout: 60_000 }, async () => {
    let tools = catalog(10_000, 7);
    const index = createToolIndex();
    index.update(tools);
    const semantic = createWordVectorIndex();
    const background = semantic.update(index);
    // The pass embeds in slices of a few milliseconds: 10,000 tools take several.
    expect(semantic.ready(index)).toBe(false);
    // The tools change before it is done, and a search comes.
    tools = tools.slice(500).map((definition, at) => (at % 3 === 0 ? { ...definition, description: "Sends rain to the customer." } : definition));
    index.update(tools);
    const during = await numbers(index, semantic);
    await background;
    expect(semantic.ready(index)).toBe(true);
    const expected = await numbers(index, generic());
    expect(during).toEqual(expected);
    expect(await numbers(index, semantic)).toEqual(expected);
  });

  it("embeds from the word ranks the index kept, then drops them; a name cut short or a one-letter summary still embeds as its text", async () => {
    const edges = [
      tool(`svc__${"forecast_rain_".repeat(800)}weather`, "Forecasts rain. More."),
      tool("svc__x", "x"),
      tool("svc__send_mail", ""),
      tool("svc__Grüße_café", "Sends Grüße to the café with the Kelvin sign K, İstanbul and ß."),
      tool("svc__HTTPServerStatus", "  Gets\tthe   HTTP server's status!  Then more."),
    ];
    const index = createToolIndex({ rankOfWord: defaultVectorsRankOfWord });
    index.update([...CATALOG, ...catalog(300, 3), ...edges]);
    const documents = [...index.documents()];
    // The name of 11,000 characters is cut for the index: its words are not all counted, so no ranks are kept.
    const cut = index.document(edges[0]?.name as string);
    expect(cut?.embeddingRanks).toBeUndefined();
    expect(documents.filter((document) => document !== cut).every((document) => document.embeddingRanks !== undefined)).toBe(true);
    const own = createWordVectorIndex();
    expect(await numbers(index, own)).toEqual(await numbers(index, generic()));
    expect(documents.every((document) => document.embeddingRanks === undefined)).toBe(true);
  });

  it("the search engine keeps the word ranks for the word vectors only, and a search consumes them", async () => {
    const tools = [...CATALOG];
    const context = { root: tmpdir(), emit: () => undefined, listTools: () => tools };
    const settings = resolveToolSearchSettings(undefined, undefined);
    const engine = await startSearchEngine(settings, undefined, context, 60_000);
    const lexical = await startSearchEngine(settings, false, context, 60_000);
    try {
      engine.refresh();
      lexical.refresh();
      const name = (CATALOG[0] as ToolDefinition).name;
      const kept = engine.document(name);
      expect(kept?.embeddingRanks).toBeDefined();
      expect((kept?.embeddingTo ?? 0) - (kept?.embeddingFrom ?? 0)).toBeGreaterThan(0);
      // Lexical ranking only (or a host's or a model's embeddings): nothing to keep them for.
      expect(lexical.document(name)?.embeddingRanks).toBeUndefined();
      await engine.rank("send a message", 3);
      expect(engine.document(name)?.embeddingRanks).toBeUndefined();
    } finally {
      await engine.close();
      await lexical.close();
    }
  });

  it("ranks kept for the embedded vectors are not used with another vectors file", async () => {
    // A small valid file: three words of four dimensions (the format of scripts/build-word-vectors.mjs).
    const words = Buffer.from("send\nmessage\nrain", "utf8");
    const header = Buffer.alloc(20);
    header.write("TXWV", 0, "ascii");
    header.writeUInt32LE(1, 4);
    header.writeUInt32LE(3, 8);
    header.writeUInt32LE(4, 12);
    header.writeUInt32LE(words.length, 16);
    const path = join(mkdtempSync(join(tmpdir(), "word-vectors-")), "word-vectors.bin");
    writeFileSync(path, Buffer.concat([header, words, Buffer.from(Int8Array.from([9, 1, 0, 2, 1, 8, 3, 0, 0, 2, 7, 5]).buffer)]));
    const tools = [...CATALOG, ...catalog(200, 9)];
    const kept = createToolIndex({ rankOfWord: defaultVectorsRankOfWord });
    kept.update(tools);
    const plain = createToolIndex();
    plain.update(tools);
    expect(await numbers(kept, createWordVectorIndex(path))).toEqual(await numbers(plain, createWordVectorIndex(path)));
  });

  it("a broken vectors file fails the search with PLUGIN_FAILED naming the file", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "word-vectors-")), "word-vectors.bin");
    writeFileSync(path, "not vectors at all");
    const index = createToolIndex();
    index.update([...CATALOG]);
    await expect(createWordVectorIndex(path).similarities(index, "send a message")).rejects.toMatchObject({
      code: "PLUGIN_FAILED",
      message: `The embedded word vectors could not be read: ${path} is not a toolexec word-vector file (format 1)`,
    });
  });
});
