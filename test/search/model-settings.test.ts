/**
 * toolSearch.model follows the export's own sentence-transformers files: the pooling
 * (`1_Pooling/config.json`) and the request/document prompts (`config_sentence_transformers.json`).
 */
import { createRequire } from "node:module";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hashModel, resolveModelFolder } from "../../src/plugins/search/model/model-folder.js";
import { loadModelEmbedder } from "../../src/plugins/search/model/model-embedder.js";
import { createSearchModel } from "../../src/plugins/search/model/search-model.js";
import { createTempProject } from "../helpers/temp-project.js";
import { SEARCH_MODEL_FOLDER, skipWithoutModel } from "./search-model-folder.js";

const POOLING = path.join("1_Pooling", "config.json");
const PROMPTS = "config_sentence_transformers.json";

/** A folder with a model and a tokenizer (the real ones when `real`), plus the given extra files. */
function modelFolder(files: Record<string, string>, real = false): { root: string; folder: string } {
  const { root } = createTempProject({ tools: { tools: [] } });
  const folder = path.join(root, "model");
  mkdirSync(path.join(folder, "1_Pooling"), { recursive: true });
  for (const name of ["model.onnx", "tokenizer.json", "tokenizer_config.json"]) {
    if (real) symlinkSync(path.join(SEARCH_MODEL_FOLDER, name), path.join(folder, name));
    else if (name !== "tokenizer_config.json") writeFileSync(path.join(folder, name), name === "model.onnx" ? "weights" : "{}");
  }
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(folder, name), content);
  return { root, folder };
}

const pooling = (mode: string) => JSON.stringify({ word_embedding_dimension: 384, pooling_mode_cls_token: mode === "cls", pooling_mode_mean_tokens: mode === "mean", pooling_mode_max_tokens: mode === "max" });

describe("a model folder's sentence-transformers settings", () => {
  it("reads the pooling and both prompts; without those files, mean pooling and no prompt", () => {
    const { root, folder } = modelFolder({ [POOLING]: pooling("cls"), [PROMPTS]: JSON.stringify({ prompts: { query: "query: ", passage: "passage: " } }) });
    expect(resolveModelFolder(folder, root).settings).toMatchObject({ pooling: "cls", queryPrompt: "query: ", documentPrompt: "passage: " });
    const plain = modelFolder({});
    expect(resolveModelFolder(plain.folder, plain.root).settings).toEqual({ pooling: "mean", queryPrompt: "", documentPrompt: "", files: [] });
  });

  it("refuses settings it cannot follow, naming the file and the problem", () => {
    const refused = (files: Record<string, string>) => {
      const { root, folder } = modelFolder(files);
      return () => resolveModelFolder(folder, root);
    };
    expect(refused({ [POOLING]: pooling("max") })).toThrow(/1_Pooling\/config\.json: pooling_mode_max_tokens is not supported \(toolexec pools by mean or by the CLS token\)/);
    expect(refused({ [POOLING]: "{}" })).toThrow(/1_Pooling\/config\.json must set exactly one pooling_mode_\* to true \(found none\)/);
    expect(refused({ [POOLING]: "{ mean" })).toThrow(/1_Pooling\/config\.json is not JSON/);
    expect(refused({ [PROMPTS]: JSON.stringify({ prompts: { query: 3 } }) })).toThrow(/config_sentence_transformers\.json: prompts\.query must be a string/);
    expect(refused({ [PROMPTS]: JSON.stringify({ prompts: ["query: "] }) })).toThrow(/prompts must be an object/);
  });

  it("keeps the hash of a mean-pooled, prompt-free model, and changes it with other settings", () => {
    const plain = modelFolder({});
    const mean = modelFolder({ [POOLING]: pooling("mean") });
    const prompted = modelFolder({ [POOLING]: pooling("mean"), [PROMPTS]: JSON.stringify({ prompts: { query: "query: " } }) });
    const cls = modelFolder({ [POOLING]: pooling("cls") });
    const hash = (project: { root: string; folder: string }) => hashModel(resolveModelFolder(project.folder, project.root));
    expect(hash(mean)).toBe(hash(plain));
    expect(new Set([hash(plain), hash(prompted), hash(cls)]).size).toBe(3);
  });
});

describe.skipIf(skipWithoutModel)("a model folder's settings, with the real model", () => {
  it("pools the CLS token when the pooling config says so", async () => {
    const { root, folder } = modelFolder({ [POOLING]: pooling("cls") }, true);
    const embedder = await loadModelEmbedder(resolveModelFolder(folder, root));
    const [vector] = await embedder.embed(["list the open pull requests"]);
    await embedder.close();
    // The same run done here by hand: the first token's hidden state, unit length.
    const require = createRequire(import.meta.url);
    const runtime = require("onnxruntime-node");
    const { Tokenizer } = await import("@huggingface/tokenizers");
    const tokenizer = new Tokenizer(JSON.parse(readFileSync(path.join(folder, "tokenizer.json"), "utf8")), JSON.parse(readFileSync(path.join(folder, "tokenizer_config.json"), "utf8")));
    const ids: number[] = tokenizer.encode("list the open pull requests").ids;
    const tensor = (value: (at: number) => number) => new runtime.Tensor("int64", BigInt64Array.from(ids.map((_, at) => BigInt(value(at)))), [1, ids.length]);
    const session = await runtime.InferenceSession.create(path.join(folder, "model.onnx"));
    const outputs = await session.run({ input_ids: tensor((at) => ids[at] as number), attention_mask: tensor(() => 1), token_type_ids: tensor(() => 0) });
    const first = Array.from((outputs.last_hidden_state.data as Float32Array).subarray(0, 384));
    const length = Math.hypot(...first);
    expect(Array.from(vector as Float32Array).map((value, at) => value - (first[at] as number) / length).every((difference) => Math.abs(difference) < 1e-4)).toBe(true);
    await session.release();
  });

  it("puts the export's prompts before requests and before tools' texts", async () => {
    const prompted = modelFolder({ [PROMPTS]: JSON.stringify({ prompts: { query: "query: ", document: "passage: " } }) }, true);
    const plain = modelFolder({}, true);
    const model = createSearchModel(resolveModelFolder(prompted.folder, prompted.root), prompted.root, () => undefined);
    const reference = createSearchModel(resolveModelFolder(plain.folder, plain.root), plain.root, () => undefined);
    try {
      const close = (left: ArrayLike<number> | undefined, right: ArrayLike<number> | undefined) => Array.from(left as ArrayLike<number>).every((value, at) => Math.abs(value - (right as ArrayLike<number>)[at]!) < 1e-4);
      const [request] = await model.embedQuery(["cancel a subscription"]);
      expect(close(request, (await reference.embedQuery(["query: cancel a subscription"]))[0])).toBe(true);
      expect(close(request, (await reference.embedQuery(["cancel a subscription"]))[0])).toBe(false);
      const [tool] = await model.embedTools(["cancel subscription: Cancel a customer's subscription."]);
      expect(close(tool, (await reference.embedTools(["passage: cancel subscription: Cancel a customer's subscription."]))[0])).toBe(true);
    } finally {
      await Promise.all([model.close(), reference.close()]);
    }
  });
});
