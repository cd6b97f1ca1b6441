/**
 * After a change the index, its cached term scores and the semantic index follow only what changed,
 * and still rank exactly as an index built afresh from the same tools.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { rankTools } from "../../src/plugins/search/rank-tools.js";
import { createSemanticIndex } from "../../src/plugins/search/semantic-index.js";
import { createToolIndex, type IndexStatistics } from "../../src/plugins/search/tool-index.js";
import type { ToolDocument } from "../../src/plugins/search/tool-document.js";
import type { ToolDefinition } from "../../src/plugin.js";
import { tool } from "./search-fixtures.js";

const VERBS = ["get", "list", "create", "update", "delete", "search", "send", "archive"];
const NOUNS = ["issue", "file", "message", "invoice", "customer", "event", "container", "ticket"];
const QUERIES = ["update an invoice", "list the containers", "send a message to the customer", "archive old tickets", "search files"];

function catalog(count: number, salt = ""): ToolDefinition[] {
  return Array.from({ length: count }, (_, at) => {
    const verb = VERBS[at % VERBS.length] as string;
    const noun = NOUNS[(at * 7) % NOUNS.length] as string;
    return tool(`svc${at % 9}__${verb}_${noun}_${at}`, `${verb} a ${noun} of service ${at % 9}.${salt}`, { [`${noun}Id`]: { type: "string" } });
  });
}

const ranked = (index: IndexStatistics) => QUERIES.map((query) => rankTools(index, query, 10));

/** A deterministic embedding: letter counts, enough to tell texts apart. */
const letters = async (texts: string[]) => texts.map((text) => Array.from({ length: 26 }, (_, letter) => 0.01 + text.split(String.fromCharCode(97 + letter)).length - 1));

/** Each tool's similarity to the query by name, to compare indexes whose slots differ. */
async function similaritiesByName(index: IndexStatistics, semantic: ReturnType<typeof createSemanticIndex>, query: string): Promise<Map<string, number>> {
  const { bySlot } = await semantic.similarities(index, query);
  return new Map([...index.documents()].map((document) => [document.name, Number((bySlot[document.slot] as number).toFixed(6))]));
}

describe("after changes", () => {
  it("ranks with the same names and scores as an index built from the final tools", () => {
    let tools = catalog(300);
    const index = createToolIndex();
    index.update(tools);
    ranked(index);
    for (let round = 0; round < 6; round++) {
      // Change one tool, remove one, add one: each moves field lengths and some terms' tools.
      tools = tools.map((definition, at) => (at === round * 40 ? { ...definition, description: `${definition.description} Now also archives invoices.` } : definition));
      tools = tools.filter((_, at) => at !== round * 40 + 5);
      tools.push(tool(`extra__send_invoice_${round}`, `Send an invoice and archive it, round ${round}.`));
      index.update(tools);
      const fresh = createToolIndex();
      fresh.update(tools);
      expect(ranked(index)).toEqual(ranked(fresh));
    }
  });

  it("a term whose last tool left frees its id, and another term taking that id ranks as in a fresh index", () => {
    const index = createToolIndex();
    const base = catalog(40);
    const rare = (name: string, words: string) => tool(`rare__${name}`, `Handles ${words} records.`, { [`${name}Id`]: { type: "string" } });
    const queries = ["zephyr quokka", "marmot walrus", "quokka records", "walrus", "zephyr"];
    const rankings = (built: IndexStatistics) => queries.map((query) => rankTools(built, query, 5));
    // The rare words' terms come and go: freed with their last tool, their ids taken by the next
    // rare words, then the first words back under new ids, as each update is applied in turn.
    const steps = [[rare("zephyr", "zephyr quokka")], [], [rare("marmot", "marmot walrus")], [rare("marmot", "marmot walrus"), rare("zephyr", "zephyr quokka")], [rare("zephyr", "zephyr walrus")]];
    const terms = ["zephyr", "quokka", "marmot", "walrus"];
    const seen = (built: IndexStatistics) => ({ rankings: rankings(built), postings: terms.map((term) => built.postings(term).map((document) => document.name)) });
    // The fresh indexes come after: one built in between would re-intern the words and hide a stale id.
    const followed = steps.map((extra) => {
      index.update([...base, ...extra]);
      return seen(index);
    });
    steps.forEach((extra, step) => {
      const fresh = createToolIndex();
      fresh.update([...base, ...extra]);
      expect(followed[step]).toEqual(seen(fresh));
    });
  });

  it("an index no longer used is collected: the process-wide word cache keeps none of its documents", async () => {
    setFlagsFromString("--expose-gc");
    const collect = runInNewContext("gc") as () => void;
    let index: ReturnType<typeof createToolIndex> | undefined = createToolIndex();
    index.update(catalog(50));
    const document = new WeakRef(index.document("svc0__get_issue_0") as object);
    index = undefined;
    for (let round = 0; round < 5 && document.deref() !== undefined; round++) {
      await new Promise((resolve) => setImmediate(resolve));
      collect();
    }
    expect(document.deref()).toBeUndefined();
  });

  it("says what changed since a version, and nothing it has forgotten", () => {
    const index = createToolIndex();
    index.update(catalog(10));
    const before = index.version;
    index.update([...catalog(9), tool("fresh__tool", "Something new.")]);
    const changes = index.changesSince(before)!;
    expect(changes.map((change) => [change.document.name, change.added])).toEqual([
      ["fresh__tool", true],
      ["svc0__list_ticket_9", false],
    ]);
    index.update(catalog(3_000, " A."));
    index.update(catalog(3_000, " B."));
    expect(index.changesSince(before)).toBeUndefined();
    expect(index.changesSince(index.version)).toEqual([]);
  });

  it("the semantic index reads only the changed tools, and agrees with one built afresh", async () => {
    let tools = catalog(500);
    const index = createToolIndex();
    index.update(tools);
    let reads = 0;
    const textOf = (document: ToolDocument) => {
      reads++;
      return document.text;
    };
    const semantic = createSemanticIndex(letters, { textOf });
    await semantic.update(index);
    // A changed tool whose text stays the same, one whose text changes, one removed, one added.
    tools = tools.map((definition, at) => (at === 3 ? { ...definition, inputSchema: { type: "object" } } : at === 4 ? { ...definition, description: "Something else entirely." } : definition));
    tools = tools.filter((_, at) => at !== 5);
    tools.push(tool("extra__new_tool", "A newcomer."));
    index.update(tools);
    reads = 0;
    await semantic.update(index);
    expect(reads).toBeLessThan(20);
    const fresh = createToolIndex();
    fresh.update(tools);
    const freshSemantic = createSemanticIndex(letters);
    for (const query of QUERIES) expect(await similaritiesByName(index, semantic, query)).toEqual(await similaritiesByName(fresh, freshSemantic, query));
  });
});
