/**
 * The search plugin's working part: the tool index, its background indexer, the semantic stage and
 * the ranking. The plugin loads this module on the first search, when the idle build is due, or at
 * start when a model or the host's embedding function is configured (a bad model folder must fail
 * the start): its ranking tables cost ~25 ms of CPU to load, which an executor that never searches
 * should not pay.
 */
import type { PluginContext } from "../../core/plugin-contract.js";
import { READ_RESULT_TOOL_NAME } from "../../core/tool-names.js";
import type { ResolvedToolSearchSettings } from "./config/tool-search-config.js";
import { rankTools, type ToolSearchResult } from "./rank-tools.js";
import { createToolIndex, type IndexUpdate } from "./tool-index.js";
import type { ToolDocument } from "./tool-document.js";
import { createBackgroundIndexer } from "./background-indexer.js";
import type { EmbedTexts, Similarities } from "./semantic-index.js";
import { startSemanticStage } from "./semantic-stage.js";
import { defaultVectorsRankOfWord } from "./embed-with-word-vectors.js";
import { checkQueryLength } from "./search-tools-tool.js";

export interface SearchEngine {
  /** The best `limit` tools for `query`, the index brought up to date first. */
  rank(query: string, limit: number): Promise<ToolSearchResult[]>;
  /** The indexed definition of a tool (for `detail: "schema"`). */
  document(name: string): ToolDocument | undefined;
  /** The tools changed: index the new listing in the background. */
  markStale(): void;
  /** Bring the index up to date now; says what changed. */
  refresh(): IndexUpdate;
  close(): Promise<void>;
}

/**
 * The engine over the context's tools; the first build waits `idleDelay` ms for a search.
 *
 * @example
 * const engine = await startSearchEngine(settings, undefined, context, IDLE_BUILD_DELAY_MS);
 * await engine.rank("open a ticket", 3);
 */
export async function startSearchEngine(settings: ResolvedToolSearchSettings, embeddings: EmbedTexts | false | undefined, context: Pick<PluginContext, "root" | "emit" | "listTools">, idleDelay: number): Promise<SearchEngine> {
  const stage = await startSemanticStage(settings, embeddings, context);
  // The word vectors add up the ranks of the words the index scanned: at 10,000 tools scanning them again was ~40 ms of the first search.
  const index = createToolIndex({ rankOfWord: stage?.kind === "word-vectors" ? defaultVectorsRankOfWord : undefined });
  // Once the tools are indexed, the word vectors embed them too, in the background; a model or
  // the host's function is left for the first search, so an executor that never searches runs neither.
  const warm = () => {
    if (stage?.kind === "word-vectors") stage.index().update(index).catch(() => undefined);
  };
  // read_result is reached through the handle a cut result names, never by searching for a task.
  const indexer = createBackgroundIndexer(index, () => context.listTools().filter((tool) => tool.name !== READ_RESULT_TOOL_NAME), warm, idleDelay);
  const refresh = (): IndexUpdate => indexer.current();
  return {
    async rank(query, limit) {
      refresh();
      if (typeof query !== "string") return [];
      checkQueryLength(query);
      if (query.trim() === "") return [];
      if (stage === undefined) return rankTools(index, query, limit);
      let version: number;
      let similarities: Similarities;
      // A concurrent search may re-index while this one waits for vectors: score against one version.
      do {
        version = index.version;
        similarities = await stage.similarities(index, query, limit, settings.semanticWeight);
      } while (index.version !== version);
      return rankTools(index, query, limit, { similarities, kind: stage.kind, weight: settings.semanticWeight });
    },
    document: (name) => index.document(name),
    markStale: () => indexer.markStale(),
    refresh,
    async close() {
      indexer.close();
      await stage?.close();
    },
  };
}
