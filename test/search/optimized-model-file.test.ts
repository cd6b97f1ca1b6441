/**
 * The model's optimized graph is saved beside the tool vectors and read by the next load, with the
 * same numbers out; a damaged, outdated or unwritable one never stops the model from loading.
 */
import { createRequire } from "node:module";
import { copyFileSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createOptimizedSession } from "../../src/plugins/search/model/optimized-model-file.js";
import { createTempProject } from "../helpers/temp-project.js";
import { SEARCH_MODEL_FOLDER, skipWithoutModel } from "./search-model-folder.js";

interface Session {
  run(feeds: Record<string, unknown>): Promise<Record<string, { data: Float32Array }>>;
  release(): Promise<void>;
}
const runtime = createRequire(import.meta.url)("onnxruntime-node") as {
  InferenceSession: { create(file: string, options: object): Promise<Session> };
  Tensor: new (type: "int64", data: BigInt64Array, dims: number[]) => unknown;
};
const VERSION = "test-runtime";

/** A copy of the real model in a fresh project (so its modification time can change), and where the graph is saved. */
function project(): { modelFile: string; cacheFolder: string } {
  const { root } = createTempProject({ tools: { tools: [] } });
  const modelFile = path.join(root, "model.onnx");
  copyFileSync(path.join(SEARCH_MODEL_FOLDER, "model.onnx"), modelFile);
  return { modelFile, cacheFolder: path.join(root, ".toolexec", "cache", "tool-search") };
}

/** Loads through the real runtime, recording which file each session was created from and at what level. */
async function load(modelFile: string, cacheFolder: string | undefined): Promise<{ calls: string[]; hidden: Float32Array }> {
  const calls: string[] = [];
  const create = (file: string, options: Record<string, unknown>) => {
    calls.push(`${path.basename(file)} ${String(options.graphOptimizationLevel)}`);
    return runtime.InferenceSession.create(file, options);
  };
  const session = await createOptimizedSession(create, modelFile, cacheFolder, VERSION, {});
  const ids = BigInt64Array.from([101n, 2862n, 1996n, 2330n, 4139n, 11186n, 102n]);
  const tensor = (data: BigInt64Array) => new runtime.Tensor("int64", data, [1, data.length]);
  const outputs = await session.run({ input_ids: tensor(ids), attention_mask: tensor(new BigInt64Array(ids.length).fill(1n)), token_type_ids: tensor(new BigInt64Array(ids.length)) });
  await session.release();
  return { calls, hidden: Float32Array.from((outputs.last_hidden_state as { data: Float32Array }).data) };
}

const saved = (cacheFolder: string) => readdirSync(cacheFolder).filter((name) => name.endsWith(".onnx") || name.endsWith(".tmp"));

describe.skipIf(skipWithoutModel)("the saved optimized graph", () => {
  it("is saved on the first load and read, unoptimized, by the next, with the same numbers", async () => {
    const { modelFile, cacheFolder } = project();
    const first = await load(modelFile, cacheFolder);
    expect(first.calls).toEqual(["model.onnx extended"]);
    const [name] = saved(cacheFolder);
    expect(saved(cacheFolder)).toHaveLength(1);
    const second = await load(modelFile, cacheFolder);
    expect(second.calls).toEqual([`${name} disabled`]);
    expect(second.hidden).toEqual(first.hidden);
    // Without a cache folder nothing is saved, and the numbers are the same again.
    expect((await load(modelFile, undefined)).hidden).toEqual(first.hidden);
  }, 120_000);

  it("is made again when damaged, and replaced when the model changes", async () => {
    const { modelFile, cacheFolder } = project();
    const first = await load(modelFile, cacheFolder);
    const [name] = saved(cacheFolder) as [string];
    writeFileSync(path.join(cacheFolder, name), "not a graph");
    const repaired = await load(modelFile, cacheFolder);
    expect(repaired.calls).toEqual([`${name} disabled`, "model.onnx extended"]);
    expect(repaired.hidden).toEqual(first.hidden);
    expect(statSync(path.join(cacheFolder, name)).size).toBeGreaterThan(1_000_000);
    // A changed model file (a later modification time) gets its own graph; the outdated one is removed.
    const later = new Date(statSync(modelFile).mtimeMs + 60_000);
    utimesSync(modelFile, later, later);
    const changed = await load(modelFile, cacheFolder);
    expect(changed.calls).toEqual(["model.onnx extended"]);
    expect(saved(cacheFolder)).toHaveLength(1);
    expect(saved(cacheFolder)).not.toContain(name);
  }, 120_000);

  it("loads the model when the cache folder cannot be written", async () => {
    const { modelFile } = project();
    // A file where a folder should be: nothing can be saved under it.
    const blocked = path.join(path.dirname(modelFile), "blocked");
    writeFileSync(blocked, "a file");
    const { calls, hidden } = await load(modelFile, path.join(blocked, "tool-search"));
    expect(calls).toEqual(["model.onnx extended"]);
    expect(hidden.length).toBeGreaterThan(0);
  }, 120_000);
});
