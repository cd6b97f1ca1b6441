/**
 * A sentence-transformers style ONNX export on disk: `model.onnx` (or `onnx/model*.onnx`) and
 * `tokenizer.json` (or a BERT `vocab.txt`). Checked when the search plugin starts, so a bad folder
 * is an error at start-up, not at the first search.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { ToolexecError } from "../../../core/errors/toolexec-error.js";
import { readModelSettings, type ModelSettings } from "./model-settings.js";

/** The files of a model folder. */
export interface ModelFolder {
  folder: string;
  modelFile: string;
  /** `tokenizer.json`, or a WordPiece `vocab.txt` when there is no tokenizer.json. */
  tokenizerFile: string;
  /** `tokenizer_config.json`, when present (special tokens, lower-casing). */
  tokenizerConfigFile: string | undefined;
  /** Pooling and prompts, from the export's sentence-transformers files (see model-settings). */
  settings: ModelSettings;
}

function fail(folder: string, problem: string): never {
  throw new ToolexecError("CONFIG_INVALID", `toolSearch.model: ${problem} in ${folder}. Expected a sentence-transformers ONNX export (model.onnx or onnx/model*.onnx, and tokenizer.json or vocab.txt); scripts/fetch-search-model.mjs builds one`, { details: { folder } });
}

/** The ONNX file: `model.onnx`, else `onnx/model.onnx`, else the first `onnx/model*.onnx` by name (exports put the quantized variants there). */
function findModelFile(folder: string): string | undefined {
  const direct = [path.join(folder, "model.onnx"), path.join(folder, "onnx", "model.onnx")].find((file) => existsSync(file));
  if (direct) return direct;
  const onnx = path.join(folder, "onnx");
  if (!existsSync(onnx)) return undefined;
  const candidates = readdirSync(onnx).filter((name) => /^model.*\.onnx$/.test(name)).sort();
  return candidates[0] === undefined ? undefined : path.join(onnx, candidates[0]);
}

/**
 * The model folder at `folder` (absolute, or relative to `root`); throws CONFIG_INVALID naming what is missing.
 *
 * @example
 * resolveModelFolder(".toolexec/models/all-minilm-l6-v2-int8", "/project");
 */
export function resolveModelFolder(folder: string, root: string): ModelFolder {
  const absolute = path.resolve(root, folder);
  if (!existsSync(absolute)) fail(absolute, "no such folder");
  if (!statSync(absolute).isDirectory()) fail(absolute, "not a folder");
  const modelFile = findModelFile(absolute) ?? fail(absolute, "no model.onnx (nor onnx/model*.onnx)");
  const tokenizerFile = [path.join(absolute, "tokenizer.json"), path.join(absolute, "vocab.txt")].find((file) => existsSync(file)) ?? fail(absolute, "no tokenizer.json (nor vocab.txt)");
  const config = path.join(absolute, "tokenizer_config.json");
  const settings = readModelSettings(absolute, (problem) => {
    throw new ToolexecError("CONFIG_INVALID", `toolSearch.model: ${problem} in ${absolute}`, { details: { folder: absolute } });
  });
  return { folder: absolute, modelFile, tokenizerFile, tokenizerConfigFile: existsSync(config) ? config : undefined, settings };
}

/** The files whose bytes or settings shape the vectors: a change to any of them means new vectors. */
export function modelFiles(model: ModelFolder): string[] {
  return [model.modelFile, model.tokenizerFile, model.tokenizerConfigFile, ...model.settings.files].filter((file): file is string => file !== undefined);
}

/** What identifies a model's vectors: the hash of its weights and of its tokenizer (the cache key's first part). */
export function hashModel(model: ModelFolder): string {
  const hash = createHash("sha256");
  for (const file of [model.modelFile, model.tokenizerFile, model.tokenizerConfigFile]) if (file) hash.update(readFileSync(file));
  // Only settings other than all-MiniLM's (mean, no prompts) enter the hash, so its cached vectors stay valid.
  const { pooling, queryPrompt, documentPrompt } = model.settings;
  if (pooling !== "mean" || queryPrompt !== "" || documentPrompt !== "") hash.update(JSON.stringify({ pooling, queryPrompt, documentPrompt }));
  return hash.digest("hex");
}
