/**
 * How a sentence-transformers export wants to be used, read from its own files: the pooling
 * (`1_Pooling/config.json`, or `pooling_config.json` beside the model) and the prompts put before a
 * request and before a document (`config_sentence_transformers.json`, `prompts`). Retrieval models
 * differ here: all-MiniLM mean-pools with no prompt, bge pools the CLS token and prefixes requests,
 * e5 prefixes both sides ("query: ", "passage: "). Used otherwise, such a model ranks worse (e5
 * without its prompts lost 0.07–0.10 top-1 on every set measured; bge mean-pooled up to 0.10).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** How the token vectors become one vector. */
export type ModelPooling = "mean" | "cls";

/** What a folder's sentence-transformers files say; the defaults are all-MiniLM's (mean, no prompts). */
export interface ModelSettings {
  pooling: ModelPooling;
  /** Put before a request. */
  queryPrompt: string;
  /** Put before a tool's text. */
  documentPrompt: string;
  /** The files read (they shape the vectors, so a change to one re-embeds). */
  files: string[];
}

const POOLING_FILES = [path.join("1_Pooling", "config.json"), "pooling_config.json"];
const PROMPTS_FILE = "config_sentence_transformers.json";
/** The pooling modes sentence-transformers writes; only mean and CLS are run here. */
const POOLING_MODES: Record<string, ModelPooling | undefined> = { pooling_mode_cls_token: "cls", pooling_mode_mean_tokens: "mean", pooling_mode_max_tokens: undefined, pooling_mode_mean_sqrt_len_tokens: undefined, pooling_mode_weightedmean_tokens: undefined, pooling_mode_lasttoken: undefined };

/** The JSON object in `name` (relative to `folder`, and so named in errors). */
function readObject(folder: string, name: string, fail: (problem: string) => never): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path.join(folder, name), "utf8"));
  } catch (error) {
    fail(`${name} is not JSON (${(error as Error).message})`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) fail(`${name} is not a JSON object`);
  return parsed as Record<string, unknown>;
}

function readPooling(folder: string, name: string | undefined, fail: (problem: string) => never): ModelPooling {
  if (name === undefined) return "mean";
  const config = readObject(folder, name, fail);
  const chosen = Object.keys(POOLING_MODES).filter((mode) => config[mode] === true);
  if (chosen.length !== 1) fail(`${name} must set exactly one pooling_mode_* to true (found ${chosen.length === 0 ? "none" : chosen.join(", ")})`);
  return POOLING_MODES[chosen[0] as string] ?? fail(`${name}: ${chosen[0]} is not supported (toolexec pools by mean or by the CLS token)`);
}

function readPrompt(prompts: Record<string, unknown>, names: readonly string[], fail: (problem: string) => never): string {
  const name = names.find((candidate) => prompts[candidate] !== undefined);
  if (name === undefined) return "";
  const prompt = prompts[name];
  return typeof prompt === "string" ? prompt : fail(`${PROMPTS_FILE}: prompts.${name} must be a string`);
}

/**
 * The settings of the model folder `folder`; `fail` reports a malformed file.
 *
 * @example
 * readModelSettings("/project/.toolexec/models/bge-small", (problem) => { throw new Error(problem); });
 * // { pooling: "cls", queryPrompt: "Represent this sentence for searching relevant passages: ", documentPrompt: "", files: [...] }
 */
export function readModelSettings(folder: string, fail: (problem: string) => never): ModelSettings {
  const pooling = POOLING_FILES.find((name) => existsSync(path.join(folder, name)));
  const promptsFile = path.join(folder, PROMPTS_FILE);
  const prompts = existsSync(promptsFile) ? readObject(folder, PROMPTS_FILE, fail).prompts ?? {} : {};
  if (prompts === null || typeof prompts !== "object" || Array.isArray(prompts)) fail(`${PROMPTS_FILE}: prompts must be an object`);
  const named = prompts as Record<string, unknown>;
  return {
    pooling: readPooling(folder, pooling, fail),
    queryPrompt: readPrompt(named, ["query"], fail),
    documentPrompt: readPrompt(named, ["document", "passage"], fail),
    files: [pooling && path.join(folder, pooling), existsSync(promptsFile) ? promptsFile : undefined].filter((file): file is string => file !== undefined),
  };
}
