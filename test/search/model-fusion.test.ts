/**
 * How a sentence model's cosines are fused with the lexical ranking (`toolSearch.model`): a clear
 * lexical leader keeps first place, and a lexical match that covers little of the request's words
 * counts for less next to the model. A stand-in model's cosines are given by slot.
 */
import { describe, expect, it } from "vitest";
import { lexicalScores, rankTools } from "../../src/plugins/search/rank-tools.js";
import { createToolIndex } from "../../src/plugins/search/tool-index.js";
import type { Similarities } from "../../src/plugins/search/semantic-index.js";
import { similaritiesBeforeEmbedded } from "../../src/plugins/search/model/search-before-embedded.js";
import type { SearchModel } from "../../src/plugins/search/model/search-model.js";
import { tool } from "./search-fixtures.js";

/** Cosines by tool name (0 for the others), as the semantic stage hands them to the ranker. */
function cosines(index: ReturnType<typeof createToolIndex>, byName: Record<string, number>): Similarities {
  const bySlot = new Float32Array(index.capacity);
  for (const [name, cosine] of Object.entries(byName)) bySlot[index.document(name)!.slot] = cosine;
  return { bySlot, mean: 0, best: 0 };
}

describe("fusing a sentence model with the lexical ranking", () => {
  it("keeps a clear lexical leader first, and lets the model reorder the rest", () => {
    const index = createToolIndex();
    index.update([
      tool("vault__get_secret", "Get a secret."),
      tool("vault__fetch_secret_value", "Get the value of a secret."),
      tool("vault__list_keys", "List the keys of the vault."),
      tool("notes__write_note", "Write a note."),
    ]);
    const query = "get the secret";
    const { matched, scores } = lexicalScores(index, query);
    const [first, second] = [...matched].sort((left, right) => scores[right.slot]! - scores[left.slot]!);
    expect([first!.name, second!.name]).toEqual(["vault__get_secret", "vault__fetch_secret_value"]);
    expect(scores[first!.slot]! / scores[second!.slot]!).toBeGreaterThan(1.1);
    // The stand-in model prefers the second tool by far; on its own it would win the fusion.
    const similarities = cosines(index, { "vault__fetch_secret_value": 1, "vault__list_keys": 0.9 });
    const ranked = rankTools(index, query, 3, { similarities, kind: "model", weight: 0.5 }).map((result) => result.name);
    expect(ranked).toEqual(["vault__get_secret", "vault__fetch_secret_value", "vault__list_keys"]);
  });

  it("lets the model decide when the best lexical match covers little of what the request says", () => {
    const index = createToolIndex();
    index.update([
      tool("a__alpha_tool", "Handles alpha records."),
      tool("b__beta_tool", "Handles beta records."),
      tool("c__gamma_tool", "Handles gamma records."),
      tool("d__delta_tool", "Handles delta records."),
      tool("e__epsilon_tool", "Handles epsilon records."),
      tool("f__zeta_tool", "Handles zeta records."),
      tool("g__unrelated_tool", "Does something else entirely."),
    ]);
    // Each word of the request is matched by a different tool, each about as well: no leader, and
    // the best match covers a sixth of the request. The model's favourite shares no word with it.
    const query = "alpha beta gamma delta epsilon zeta";
    const similarities = cosines(index, { "g__unrelated_tool": 1 });
    const [best] = rankTools(index, query, 3, { similarities, kind: "model", weight: 0.5 });
    expect(best?.name).toBe("g__unrelated_tool");
    // The same request with one word is covered fully by its match, which stays first.
    const [single] = rankTools(index, "alpha", 3, { similarities, kind: "model", weight: 0.5 });
    expect(single?.name).toBe("a__alpha_tool");
  });

  it("answers a first search with a clear leader from one batch, with the scores of a fully embedded index", async () => {
    const tools = [tool("vault__get_secret", "Get a secret."), ...Array.from({ length: 50 }, (_, at) => tool(`vault__secret_tool_${at}`, `A secret ${"filler ".repeat(at)}helper.`))];
    const index = createToolIndex();
    index.update(tools);
    const vectorOf = (text: string) => Float32Array.from(text.startsWith("get secret") ? [0.6, 0.8] : [1, 0]);
    const embedded: string[] = [];
    const model: SearchModel = {
      embedTools: async (texts) => (embedded.push(...texts), texts.map(vectorOf)),
      embedQuery: async (texts) => texts.map(() => Float32Array.from([1, 0])),
      close: async () => {},
    };
    const early = await similaritiesBeforeEmbedded(index, "get the secret", 1, model, 0.5);
    expect(early).toBeDefined();
    expect(embedded.length).toBeGreaterThan(0);
    expect(embedded.length).toBeLessThan(tools.length);
    const full = cosines(index, Object.fromEntries([...index.documents()].map((document) => [document.name, vectorOf(document.modelText)[0]!])));
    const semantic = { kind: "model" as const, weight: 0.5 };
    expect(rankTools(index, "get the secret", 1, { ...semantic, similarities: early })).toEqual(rankTools(index, "get the secret", 1, { ...semantic, similarities: full }));
  });
});
