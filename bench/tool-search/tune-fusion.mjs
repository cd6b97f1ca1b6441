#!/usr/bin/env node
// Chooses how tool search fuses its lexical ranking with a sentence model, by half of the dev set
// (A = even positions, B = odd) and on our own requests (bench/tool-search/own-requests.json, written
// before any ranker output was seen). For each fusion and weight it prints top-1 / R@5 per set, so
// a setting is kept only when it holds on every set. Uses the built internals (npm run build first).
//
//   node bench/tool-search/tune-fusion.mjs [--model .toolexec/models/all-minilm-l6-v2-int8 (any export: its pooling and prompts apply)] [--shared ../shared/tool-search]
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { createToolIndex } from "../../dist/plugins/search/tool-index.js";
import { rankTools } from "../../dist/plugins/search/rank-tools.js";
import { resolveModelFolder } from "../../dist/plugins/search/model/model-folder.js";
import { loadModelEmbedder } from "../../dist/plugins/search/model/model-embedder.js";

const argument = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
};
const shared = resolve(argument("shared", "/work/shared/tool-search"));
const catalog = JSON.parse(readFileSync(`${shared}/catalog.json`, "utf8"));
const dev = JSON.parse(readFileSync(`${shared}/queries-dev.json`, "utf8"));
const own = JSON.parse(readFileSync(new URL("./own-requests.json", import.meta.url), "utf8"));
const own2 = JSON.parse(readFileSync(new URL("./own-requests-2.json", import.meta.url), "utf8"));
const sets = { A: dev.filter((_, at) => at % 2 === 0), B: dev.filter((_, at) => at % 2 === 1), own, own2 };

const index = createToolIndex();
index.update(catalog.map((tool) => ({ name: tool.name, description: tool.description ?? "", inputSchema: tool.inputSchema ?? { type: "object" } })));
const documents = [...index.documents()];
const modelFolder = resolveModelFolder(argument("model", ".toolexec/models/all-minilm-l6-v2-int8"), process.cwd());
const { queryPrompt, documentPrompt } = modelFolder.settings;
const model = await loadModelEmbedder(modelFolder);
// The export's prompts, as the model stage puts them (e5: "query: " / "passage: ").
const embedder = { embed: (texts, prompt = queryPrompt) => model.embed(texts.map((text) => prompt + text)), close: () => model.close() };
const TEXTS = {
  full: (document) => document.modelText,
  summary: (document) => document.text,
  "summary+server": (document) => `${document.server} ${document.text}`,
  "full+server": (document) => `${document.server} ${document.modelText}`,
};
const textVariant = argument("text", "full");
const toolVectors = [];
for (let start = 0; start < documents.length; start += 32) toolVectors.push(...(await embedder.embed(documents.slice(start, start + 32).map(TEXTS[textVariant]), documentPrompt)));
const dot = (left, right) => left.reduce((sum, value, at) => sum + value * right[at], 0);

/** Per query: the lexical ranking (name → score, rank) and the model's similarity per tool. */
async function prepare(queries) {
  return Promise.all(
    queries.map(async ({ query, expected }) => {
      const lexical = rankTools(index, query, documents.length);
      const [vector] = await embedder.embed([query]);
      const similarity = new Map(documents.map((document, at) => [document.name, dot(vector, toolVectors[at])]));
      return { query, expected, lexical, similarity };
    }),
  );
}
const prepared = {};
for (const [name, queries] of Object.entries(sets)) prepared[name] = await prepare(queries);

const FUSIONS = {
  lexical: () => (item) => item.lexical.map((result) => result.name),
  model: () => (item) => [...item.similarity].sort((left, right) => right[1] - left[1]).map(([name]) => name),
  rrf: ({ k, w }) => (item) => {
    const fused = new Map();
    item.lexical.forEach((result, rank) => fused.set(result.name, 1 / (k + rank + 1)));
    [...item.similarity].sort((left, right) => right[1] - left[1]).forEach(([name], rank) => fused.set(name, (fused.get(name) ?? 0) + w / (k + rank + 1)));
    return [...fused].sort((left, right) => right[1] - left[1]).map(([name]) => name);
  },
  // Lexical score relative to the best, plus the model's similarity above the mean relative to the best's.
  relative: ({ w }) => (item) => {
    const best = item.lexical[0]?.score ?? 1;
    const values = [...item.similarity.values()];
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    const top = Math.max(...values);
    const lexical = new Map(item.lexical.map((result) => [result.name, result.score / best]));
    return [...item.similarity].map(([name, similarity]) => [name, (lexical.get(name) ?? 0) + (w * Math.max(0, similarity - mean)) / (top - mean)]).sort((left, right) => right[1] - left[1]).map(([name]) => name);
  },
  // Raw cosine times a weight, plus the relative lexical score.
  cosine: ({ w }) => (item) => {
    const best = item.lexical[0]?.score ?? 1;
    const lexical = new Map(item.lexical.map((result) => [result.name, result.score / best]));
    return [...item.similarity].map(([name, similarity]) => [name, (lexical.get(name) ?? 0) + w * similarity]).sort((left, right) => right[1] - left[1]).map(([name]) => name);
  },
  // Both sides as z-scores (lexical over the matched tools, cosine over every tool), the lexical one weighted 1.
  zscore: ({ w }) => (item) => {
    const lexicalValues = item.lexical.map((result) => result.score);
    const [lexicalMean, lexicalDeviation] = moments(lexicalValues);
    const [cosineMean, cosineDeviation] = moments([...item.similarity.values()]);
    const lexical = new Map(item.lexical.map((result) => [result.name, (result.score - lexicalMean) / (lexicalDeviation || 1)]));
    const floor = lexicalValues.length ? Math.min(...lexical.values()) : 0;
    return [...item.similarity].map(([name, similarity]) => [name, (lexical.get(name) ?? floor - 1) + (w * (similarity - cosineMean)) / (cosineDeviation || 1)]).sort((left, right) => right[1] - left[1]).map(([name]) => name);
  },
  // Relative lexical score plus w × cosine, but only when the lexical top is not clear: a lexical
  // leader ahead of the second by more than margin m keeps its place (trust lexical when it is sure).
  gated: ({ w, m }) => (item) => {
    const [first, second] = item.lexical;
    if (first && (!second || first.score / second.score >= m)) return FUSIONS.lexical()(item);
    return FUSIONS.cosine({ w })(item);
  },
  // Cosine with the weight scaled by lexical uncertainty: w × (1 + s × (1 − margin)), margin = 1 − second/first.
  adaptive: ({ w, s }) => (item) => {
    const [first, second] = item.lexical;
    const margin = first ? 1 - (second?.score ?? 0) / first.score : 0;
    return FUSIONS.cosine({ w: w * (1 + s * (1 - margin)) })(item);
  },
  // Cosine fusion where the model may only reorder the lexical top k (the rest keep the lexical order below).
  rerank: ({ k, w }) => (item) => {
    const best = item.lexical[0]?.score ?? 1;
    const head = item.lexical.slice(0, k).map((result) => [result.name, result.score / best + w * item.similarity.get(result.name)]).sort((left, right) => right[1] - left[1]).map(([name]) => name);
    const rest = [...item.similarity].filter(([name]) => !head.includes(name)).map(([name, similarity]) => [name, (item.lexical.find((result) => result.name === name)?.score ?? 0) / best + 0.5 * similarity]).sort((left, right) => right[1] - left[1]).map(([name]) => name);
    return [...head, ...rest];
  },
};

function moments(values) {
  if (values.length === 0) return [0, 1];
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return [mean, Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length)];
}

function measure(rank, items) {
  let top1 = 0;
  let recall5 = 0;
  for (const item of items) {
    const ranked = rank(item);
    if (item.expected.includes(ranked[0])) top1++;
    if (ranked.slice(0, 5).some((name) => item.expected.includes(name))) recall5++;
  }
  return `${(top1 / items.length).toFixed(3)}/${(recall5 / items.length).toFixed(3)}`;
}

const grid = [["lexical", [{}]], ["model", [{}]], ["rrf", [10, 30, 60].flatMap((k) => [0.5, 0.75, 1, 1.5].map((w) => ({ k, w })))], ["relative", [0.3, 0.5, 0.7, 1, 1.5].map((w) => ({ w }))], ["cosine", [0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 1].map((w) => ({ w }))], ["rerank", [3, 5, 10].flatMap((k) => [0.3, 0.5, 1].map((w) => ({ k, w })))], ["zscore", [0.2, 0.3, 0.5, 0.7, 1].map((w) => ({ w }))], ["gated", [1.1, 1.25, 1.5, 2].flatMap((m) => [0.3, 0.5, 0.7, 1].map((w) => ({ w, m })))], ["adaptive", [0.1, 0.2, 0.25, 0.3].flatMap((w) => [0.5, 1, 2, 3].map((s) => ({ w, s })))]];
console.log(`fusion                 ${Object.keys(sets).map((name) => `${name} top1/R@5`.padEnd(16)).join(" ")}`);
for (const [fusion, settings] of grid) {
  for (const setting of settings) {
    const label = `${fusion} ${Object.entries(setting).map(([key, value]) => `${key}=${value}`).join(" ")}`.padEnd(22);
    console.log(`${label} ${Object.keys(sets).map((name) => measure(FUSIONS[fusion](setting), prepared[name]).padEnd(16)).join(" ")}`);
  }
}


// Each hand-written stage off in turn, without and with the model (at the shipped weight): a stage
// is worth keeping when turning it off costs both halves.
const { DEFAULT_MODEL_WEIGHT } = await import("../../dist/plugins/search/rank-tools.js");
const slotSimilarities = (vector) => {
  const bySlot = new Float32Array(index.capacity);
  documents.forEach((document, at) => (bySlot[document.slot] = dot(vector, toolVectors[at])));
  return { bySlot, mean: 0, best: 0 };
};
const vectorsByQuery = new Map();
for (const queries of Object.values(sets)) for (const { query } of queries) if (!vectorsByQuery.has(query)) vectorsByQuery.set(query, (await embedder.embed([query]))[0]);
const ablate = (without, withModel) => (item) =>
  rankTools(index, item.query, 5, withModel ? { similarities: slotSimilarities(vectorsByQuery.get(item.query)), kind: "model", weight: DEFAULT_MODEL_WEIGHT } : {}, new Set(without)).map((result) => result.name);
console.log(`\nstage turned off       ${Object.keys(sets).map((name) => `${name} lexical`.padEnd(14) + `${name} +model`.padEnd(14)).join(" ")}`);
for (const stage of [[], ["related"], ["hints"], ["surface"], ["partial"], ["action"], ["deprecated"], ["routes"]]) {
  const label = (stage[0] ?? "(none: all on)").padEnd(22);
  console.log(`${label} ${Object.keys(sets).map((name) => measure(ablate(stage, false), prepared[name]).padEnd(14) + measure(ablate(stage, true), prepared[name]).padEnd(14)).join(" ")}`);
}
await embedder.close();
