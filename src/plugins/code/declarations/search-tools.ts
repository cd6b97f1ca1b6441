/**
 * `search_tools(query)` inside the sandbox. With a ranker from the executor (`executor.searchTools`,
 * passed to the plugin as `rankTools`), code gets the same ranking as every other front door, kept
 * to the tools code may call. Without one (the plugin on its own), and for a blank query, tools are
 * ranked by how many of the query's words appear in their names and descriptions: plain word
 * matching with fixed weights, so the same query over the same tools always gives the same answer.
 */
import type { ToolDefinition } from "../../../core/plugin-contract.js";
import { listCodeModeTools, type CodeModeTool } from "./code-mode-catalog.js";
import { summarizeDescription } from "./summarize-description.js";

/** How many matches `search_tools` returns when the code names no limit. */
export const DEFAULT_SEARCH_LIMIT = 10;

/** One match, as sandboxed code receives it. */
export interface ToolSearchMatch {
  /** The registry name, for `call_tool(name, args)` and `describe_tool(name)`. */
  name: string;
  server: string;
  tool: string;
  /** The first sentence of the description. */
  summary: string;
}

/** The executor's tool ranking: names best first, over the whole registry. */
export type RankTools = (query: string, options: { limit: number }) => Promise<ReadonlyArray<{ name: string }>>;

/** How many more tools to ask the ranker for than code wants: some ranked tools are not callable from code. */
const RANKED_SLACK = 20;
/** Most tools one ranking returns (the executor's cap). */
const MAX_RANKED = 100;

/** The tools code may call, listed once per change of the registry (code mode's ToolCatalog is one). */
export interface SearchableCatalog {
  /** In catalog order (listCodeModeTools). */
  entries: readonly CodeModeTool[];
  byName: ReadonlyMap<string, CodeModeTool>;
}

/**
 * The catalog's tools in the ranker's order, best first; a blank query lists the first tools.
 *
 * @example
 * await searchToolsRanked(catalog, executor.searchTools, "is it going to snow?", 3);
 */
export async function searchToolsRanked(catalog: SearchableCatalog, rank: RankTools, query: string, limit: number = DEFAULT_SEARCH_LIMIT): Promise<ToolSearchMatch[]> {
  const count = Number.isFinite(limit) && limit >= 1 ? Math.floor(limit) : DEFAULT_SEARCH_LIMIT;
  if (String(query).trim() === "") return searchCatalog(catalog.entries, "", count);
  const ranked = await rank(String(query), { limit: Math.min(MAX_RANKED, count + RANKED_SLACK) });
  const matches: ToolSearchMatch[] = [];
  for (const { name } of ranked) {
    const entry = catalog.byName.get(name);
    if (entry) matches.push(toMatch(entry));
    if (matches.length === count) break;
  }
  return matches;
}

/** Weights: a word of the name says more than a word of the description. */
const SCORE = {
  exactName: 100,
  nameWord: 10,
  namePart: 5,
  descriptionWord: 3,
  descriptionPrefix: 1,
} as const;

/** Shorter query words match only whole words: "a" or "to" would match almost everything. */
const SHORTEST_PARTIAL_WORD = 3;

/**
 * The tools that best match the query, best first; ties keep catalog order (server, then tool).
 * An empty query lists the first tools. A `limit` that is not a positive number gives the default.
 *
 * @example
 * searchTools(tools, "convert units", 3);
 * // [{ name: "unit_convert", server: "local", tool: "unit_convert", summary: "Convert a number between units of the same kind: ..." }]
 */
export function searchTools(tools: readonly ToolDefinition[], query: string, limit: number = DEFAULT_SEARCH_LIMIT): ToolSearchMatch[] {
  return searchCatalog(listCodeModeTools(tools), query, limit);
}

/**
 * `searchTools` over tools already listed for code mode (in catalog order): what the sandbox's
 * `search_tools` runs, without listing the registry again for each call.
 *
 * @example
 * searchCatalog(catalog.entries, "convert units", 3);
 */
export function searchCatalog(catalog: readonly CodeModeTool[], query: string, limit: number = DEFAULT_SEARCH_LIMIT): ToolSearchMatch[] {
  const count = Number.isFinite(limit) && limit >= 1 ? Math.floor(limit) : DEFAULT_SEARCH_LIMIT;
  const queryWords = [...new Set(wordsOf(String(query)))];
  if (queryWords.length === 0) return catalog.slice(0, count).map(toMatch);
  const normalizedQuery = String(query).trim().toLowerCase();
  return catalog
    .map((entry) => ({ entry, score: scoreOf(entry, normalizedQuery, queryWords) }))
    .filter((scored) => scored.score > 0)
    .sort((left, right) => right.score - left.score)
    .slice(0, count)
    .map((scored) => toMatch(scored.entry));
}

/** The words of one tool, ready for scoring. */
interface WordIndex {
  name: string;
  exactNames: string[];
  nameWords: Set<string>;
  descriptionWords: Set<string>;
  /** The description's words, each preceded by a space, for word-start matches with one `includes`. */
  descriptionText: string;
}

/** Indexes by definition object: the registry never mutates a definition, so a search need not re-split it. */
const wordIndexes = new WeakMap<ToolDefinition, WordIndex>();

function wordIndexOf(entry: CodeModeTool): WordIndex {
  let index = wordIndexes.get(entry.definition);
  if (index === undefined) {
    const descriptionWords = new Set(wordsOf(entry.definition.description));
    index = {
      name: entry.name.toLowerCase(),
      exactNames: [entry.name, entry.tool, `${entry.server}.${entry.tool}`].map((name) => name.toLowerCase()),
      nameWords: new Set([...wordsOf(entry.server), ...wordsOf(entry.tool)]),
      descriptionWords,
      descriptionText: ` ${[...descriptionWords].join(" ")}`,
    };
    wordIndexes.set(entry.definition, index);
  }
  return index;
}

function scoreOf(entry: CodeModeTool, normalizedQuery: string, queryWords: string[]): number {
  const index = wordIndexOf(entry);
  let score = index.exactNames.includes(normalizedQuery) ? SCORE.exactName : 0;
  for (const word of queryWords) {
    const partial = word.length >= SHORTEST_PARTIAL_WORD;
    if (index.nameWords.has(word)) score += SCORE.nameWord;
    else if (partial && index.name.includes(word)) score += SCORE.namePart;
    if (index.descriptionWords.has(word)) score += SCORE.descriptionWord;
    else if (partial && index.descriptionText.includes(` ${word}`)) score += SCORE.descriptionPrefix;
  }
  return score;
}

/**
 * Lower-case words of a text, camelCase split. A plural `s` is dropped (`issues` → `issue`) on both
 * the query's side and the tools' side: the one stemming that pays for itself.
 *
 * @example
 * wordsOf("csvSummary of github__list_issues"); // ["csv", "summary", "of", "github", "list", "issue"]
 */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "")
    .map((word) => (word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word));
}

function toMatch(entry: CodeModeTool): ToolSearchMatch {
  return { name: entry.name, server: entry.server, tool: entry.tool, summary: summarizeDescription(entry.definition.description) };
}
