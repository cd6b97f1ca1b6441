/**
 * Runs a sentence-transformers ONNX export: tokenize (WordPiece, from `@huggingface/tokenizers`),
 * run the transformer (`onnxruntime-node`, whose `run` works on its own threads, so the event loop
 * stays free), pool the last hidden state (mean over the real tokens, or the CLS token, as the
 * export's pooling config says), normalise. Both packages
 * are optional peer dependencies, imported here only.
 */
import { readFileSync } from "node:fs";
import { importOptionalPackage } from "./import-optional-package.js";
import type { ModelFolder } from "./model-folder.js";
import type { ModelPooling } from "./model-settings.js";
import { wordPieceTokenizerJson } from "./wordpiece-tokenizer-json.js";
import { createOptimizedSession } from "./optimized-model-file.js";
import { normalizeVector } from "../normalize-vector.js";

/** Most tokens of one text the model reads: tool descriptions say what matters first, and cost grows with length. */
export const MAX_MODEL_TOKENS = 128;

/**
 * The runtime's worker threads sleep between runs instead of spinning for the next one. Spinning
 * saves a few microseconds on an idle machine; on a busy one the spinning threads take the cores
 * the run needs: a one-request run measured 130–150 ms with spinning and 4–5 ms without, at load 17
 * on 2 cores (a batch of 32 texts: 715 ms of CPU with, 577 ms without).
 */
const NO_SPINNING = { intra_op: { allow_spinning: "0" }, inter_op: { allow_spinning: "0" } };

/** The shapes used of onnxruntime-node and @huggingface/tokenizers (kept local: neither is a dependency). */
interface OnnxTensor {
  data: Float32Array;
  dims: readonly number[];
}
interface OnnxRuntime {
  env?: { versions?: { node?: string } };
  Tensor: new (type: "int64", data: BigInt64Array, dims: number[]) => unknown;
  InferenceSession: { create(file: string, options?: Record<string, unknown>): Promise<{ inputNames: readonly string[]; run(feeds: Record<string, unknown>): Promise<Record<string, OnnxTensor>>; release?(): Promise<void> }> };
}
interface TokenizerInstance {
  encode(text: string, options?: { return_token_type_ids?: boolean }): { ids: number[] };
}
interface TokenizersPackage {
  Tokenizer: new (tokenizer: object, config: object) => TokenizerInstance;
}

/** A loaded model: texts to unit vectors. */
export interface ModelEmbedder {
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  close(): Promise<void>;
}

function loadTokenizer(tokenizers: TokenizersPackage, model: ModelFolder): TokenizerInstance {
  const text = readFileSync(model.tokenizerFile, "utf8");
  const json = model.tokenizerFile.endsWith(".json") ? JSON.parse(text) : wordPieceTokenizerJson(text);
  const config = model.tokenizerConfigFile ? JSON.parse(readFileSync(model.tokenizerConfigFile, "utf8")) : { do_lower_case: true };
  return new tokenizers.Tokenizer(json, config);
}

/** Token ids cut to MAX_MODEL_TOKENS, keeping the closing separator. */
function truncate(ids: number[]): number[] {
  return ids.length <= MAX_MODEL_TOKENS ? ids : [...ids.slice(0, MAX_MODEL_TOKENS - 1), ids[ids.length - 1] as number];
}

/** Each text's vector, made unit length: the mean of the hidden states over its real tokens, or its first (CLS) token's. */
function pool(hidden: OnnxTensor, lengths: readonly number[], pooling: ModelPooling): Float32Array[] {
  const [, width = 0, dimensions = 0] = hidden.dims;
  return lengths.map((length, row) => {
    const vector = new Float32Array(dimensions);
    for (let token = 0; token < (pooling === "cls" ? 1 : length); token++) {
      const offset = (row * width + token) * dimensions;
      for (let dimension = 0; dimension < dimensions; dimension++) vector[dimension] = (vector[dimension] as number) + (hidden.data[offset + dimension] as number);
    }
    return normalizeVector(vector);
  });
}

/**
 * Load the model of a folder (the runtime packages are imported now). With `cacheFolder`, the
 * optimized graph is saved there and the next load reads it (see optimized-model-file).
 *
 * @example
 * const embedder = await loadModelEmbedder(resolveModelFolder(".toolexec/models/all-minilm-l6-v2-int8", root), "/project/.toolexec/cache/tool-search");
 * const [vector] = await embedder.embed(["open a ticket"]); // 384 numbers, unit length
 */
export async function loadModelEmbedder(model: ModelFolder, cacheFolder?: string): Promise<ModelEmbedder> {
  const runtime = (await importOptionalPackage("onnxruntime-node")) as OnnxRuntime;
  const tokenizers = (await importOptionalPackage("@huggingface/tokenizers")) as TokenizersPackage;
  const tokenizer = loadTokenizer(tokenizers, model);
  const create = (file: string, options: Record<string, unknown>) => runtime.InferenceSession.create(file, options);
  const session = await createOptimizedSession(create, model.modelFile, cacheFolder, runtime.env?.versions?.node ?? "unknown", { extra: { session: NO_SPINNING } });
  const tensor = (rows: number[][], width: number, value: (ids: number[], at: number) => number) => {
    const data = new BigInt64Array(rows.length * width);
    rows.forEach((ids, row) => {
      for (let at = 0; at < ids.length; at++) data[row * width + at] = BigInt(value(ids, at));
    });
    return new runtime.Tensor("int64", data, [rows.length, width]);
  };
  return {
    async embed(texts) {
      if (texts.length === 0) return [];
      const rows = texts.map((text) => truncate(tokenizer.encode(text).ids));
      const width = Math.max(...rows.map((ids) => ids.length));
      const feeds: Record<string, unknown> = { input_ids: tensor(rows, width, (ids, at) => ids[at] as number), attention_mask: tensor(rows, width, () => 1) };
      if (session.inputNames.includes("token_type_ids")) feeds.token_type_ids = tensor(rows, width, () => 0);
      const outputs = await session.run(feeds);
      const hidden = outputs.last_hidden_state ?? outputs[Object.keys(outputs)[0] as string];
      return pool(hidden as OnnxTensor, rows.map((ids) => ids.length), model.settings.pooling);
    },
    async close() {
      await session.release?.();
    },
  };
}
