/**
 * Which semantic stage a search plugin runs: the host's `toolSearch.embeddings`, a sentence model
 * from `toolSearch.model`, the embedded word vectors (default), or none (`embeddings: false`).
 * A model folder and its runtime packages are checked when the plugin starts; the model itself
 * loads on the first search.
 */
import type { PluginContext } from "../../core/plugin-contract.js";
import { createSemanticIndex, type EmbedTexts, type SemanticIndex, type Similarities } from "./semantic-index.js";
import type { IndexStatistics } from "./tool-index.js";
import { createWordVectorIndex } from "./word-vector-index.js";
import type { SearchModel } from "./model/search-model.js";

/** The kind of semantic stage, which decides how it is fused with the lexical ranking. */
export type SemanticKind = "word-vectors" | "host" | "model";

export interface SemanticStageHandle {
  kind: SemanticKind;
  /** Made on the first search, so an executor that never searches loads nothing. */
  index(): SemanticIndex;
  /**
   * The request's cosine to every tool. With a model, before every tool has its vector, only the
   * tools that can reach the best `limit` are embedded first (`search-before-embedded`) and the
   * rest in the background.
   */
  similarities(index: IndexStatistics, query: string, limit: number, weight: number): Promise<Similarities>;
  close(): Promise<void>;
}

/**
 * The plugin's semantic stage, or undefined for lexical ranking only. Throws CONFIG_INVALID for a
 * bad model folder and PLUGIN_FAILED naming a missing runtime package.
 *
 * @example
 * const stage = await startSemanticStage({ model: ".toolexec/models/all-minilm-l6-v2-int8" }, undefined, context);
 */
export async function startSemanticStage(settings: { model: string | null }, embeddings: EmbedTexts | false | undefined, context: Pick<PluginContext, "root" | "emit">): Promise<SemanticStageHandle | undefined> {
  if (embeddings === false) return undefined;
  let model: SearchModel | undefined;
  let similaritiesBeforeEmbedded: typeof import("./model/search-before-embedded.js").similaritiesBeforeEmbedded | undefined;
  if (settings.model !== null && embeddings === undefined) {
    // The model's modules load only for a model (~15 ms of the default stage's first search before).
    const [{ resolveModelFolder }, { importOptionalPackage, MODEL_RUNTIME_PACKAGES }, { createSearchModel }, early] = await Promise.all([
      import("./model/model-folder.js"),
      import("./model/import-optional-package.js"),
      import("./model/search-model.js"),
      import("./model/search-before-embedded.js"),
    ]);
    const folder = resolveModelFolder(settings.model, context.root);
    for (const name of MODEL_RUNTIME_PACKAGES) await importOptionalPackage(name);
    model = createSearchModel(folder, context.root, (progress) => context.emit("search:progress", progress));
    similaritiesBeforeEmbedded = early.similaritiesBeforeEmbedded;
  }
  let index: SemanticIndex | undefined;
  const kind: SemanticKind = model ? "model" : embeddings ? "host" : "word-vectors";
  const handle: SemanticStageHandle = {
    kind,
    index() {
      if (index) return index;
      if (model) return (index = createSemanticIndex(model.embedTools, { embedQuery: model.embedQuery, batchSize: Number.POSITIVE_INFINITY, textOf: (document) => document.modelText }));
      return (index = embeddings ? createSemanticIndex(embeddings) : createWordVectorIndex());
    },
    async similarities(tools, query, limit, weight) {
      const semantic = handle.index();
      if (!model || !similaritiesBeforeEmbedded || semantic.ready(tools)) return semantic.similarities(tools, query);
      const early = await similaritiesBeforeEmbedded(tools, query, limit, model, weight);
      if (!early) return semantic.similarities(tools, query);
      semantic.update(tools).catch(() => undefined);
      return early;
    },
    async close() {
      await model?.close();
    },
  };
  return handle;
}
