/**
 * The model stage of tool search (`toolSearch.model`): a sentence-embedding model on this machine,
 * loaded on the first search (never at start-up, never downloaded), with tool vectors cached on
 * disk by model and text. The first use reports progress as it embeds the tools that are not cached.
 */
import path from "node:path";
import { ToolexecError } from "../../../core/errors/toolexec-error.js";
import type { EmbedTexts } from "../semantic-index.js";
import type { ModelFolder } from "./model-folder.js";
import { hashModelCached } from "./model-hash-cache.js";
import type { ModelEmbedder } from "./model-embedder.js";
import { startModelThread } from "./model-thread.js";
import { cachedDimensions, openEmbeddingCache, type EmbeddingCache } from "./embedding-cache.js";

/** Texts per model run: larger batches pad more, smaller ones pay more per call. */
export const MODEL_BATCH_SIZE = 32;
/** Recent requests' vectors kept in memory. */
const QUERY_CACHE_SIZE = 256;
/** Where tool vectors are cached, under the project. */
export const EMBEDDING_CACHE_FOLDER = path.join(".toolexec", "cache", "tool-search");

/** Progress of embedding the tools that had no cached vector. */
export interface SearchEmbeddingProgress {
  /** The model folder. */
  model: string;
  /** Tools embedded so far in this pass. */
  embedded: number;
  /** Tools this pass embeds (those without a cached vector). */
  total: number;
}

declare module "../../../core/plugin-events.js" {
  interface PluginEvents {
    /** Tool search is embedding tools with `toolSearch.model` (first use, or new and changed tools). */
    "search:progress": SearchEmbeddingProgress;
  }
}

/** The two embedding functions of the semantic index: tools (disk-cached, with progress) and requests. */
export interface SearchModel {
  embedTools: EmbedTexts;
  embedQuery: EmbedTexts;
  close(): Promise<void>;
}

/**
 * The model stage over a checked model folder; nothing is loaded until the first embedding.
 *
 * @example
 * const model = createSearchModel(resolveModelFolder(folder, root), root, (progress) => context.emit("search:progress", progress));
 */
export function createSearchModel(model: ModelFolder, root: string, onProgress: (progress: SearchEmbeddingProgress) => void): SearchModel {
  const cacheFolder = path.join(root, EMBEDDING_CACHE_FOLDER);
  let loading: Promise<ModelEmbedder> | undefined;
  let opening: Promise<EmbeddingCache> | undefined;
  const loadEmbedder = () => {
    if (loading) return loading;
    loading = (async () => startModelThread(model, cacheFolder))();
    // Started early and perhaps not awaited yet (cached vectors need no model): its failure is answered by the next embedding that needs it.
    loading.catch(() => undefined);
    return loading;
  };
  // The model loads in its worker while this thread hashes it and reads the cache: tools whose
  // vectors are cached (a second executor over the same tools) never wait for the model.
  const openCache = () =>
    (opening ??= (async () => {
      const embedder = loadEmbedder();
      const hash = hashModelCached(model, cacheFolder);
      const dimensions = cachedDimensions(cacheFolder, hash) ?? (await (await embedder).embed(["tool"]))[0]?.length ?? 0;
      return openEmbeddingCache(cacheFolder, hash, dimensions);
    })());
  const queries = new Map<string, Float32Array>();
  // Tools may be embedded in the background after a search: closing stops between two batches and waits for the one under way.
  let closed = false;
  let running: Promise<unknown> | undefined;
  return {
    async embedTools(texts) {
      const cache = await openCache();
      // By length, so each batch pads its texts to about the same number of tokens.
      const missing = [...new Set(texts.filter((text) => cache.get(text) === undefined))].sort((left, right) => left.length - right.length);
      const embedder = missing.length > 0 ? await loadEmbedder() : undefined;
      for (let start = 0; start < missing.length; start += MODEL_BATCH_SIZE) {
        if (closed) throw new ToolexecError("EXECUTOR_CLOSED", "toolSearch.model: the search plugin closed while tools were being embedded");
        const batch = missing.slice(start, start + MODEL_BATCH_SIZE);
        const embedding = (embedder as ModelEmbedder).embed(batch.map((text) => model.settings.documentPrompt + text));
        running = embedding.catch(() => undefined);
        const vectors = await embedding;
        cache.add(batch.map((text, at) => [text, vectors[at] as Float32Array] as const));
        onProgress({ model: model.folder, embedded: Math.min(start + MODEL_BATCH_SIZE, missing.length), total: missing.length });
      }
      return texts.map((text) => cache.get(text) as Float32Array);
    },
    async embedQuery(texts) {
      const embedder = await loadEmbedder();
      const unknown = texts.filter((text) => !queries.has(text));
      const vectors = await embedder.embed(unknown.map((text) => model.settings.queryPrompt + text));
      unknown.forEach((text, at) => {
        if (queries.size >= QUERY_CACHE_SIZE) queries.delete(queries.keys().next().value as string);
        queries.set(text, vectors[at] as Float32Array);
      });
      return texts.map((text) => queries.get(text) as Float32Array);
    },
    async close() {
      closed = true;
      await running;
      if (loading) await (await loading.catch(() => undefined))?.close();
    },
  };
}
