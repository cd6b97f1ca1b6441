/** The model's hash is read from its record beside the vector cache while the files are unchanged. */
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hashModel, resolveModelFolder } from "../../src/plugins/search/model/model-folder.js";
import { hashModelCached } from "../../src/plugins/search/model/model-hash-cache.js";
import { createTempProject } from "../helpers/temp-project.js";

describe("the model hash record", () => {
  it("hashes a model once, and again when one of its files changes", () => {
    const { root } = createTempProject({ tools: { tools: [] } });
    const folder = path.join(root, "model");
    mkdirSync(folder);
    writeFileSync(path.join(folder, "model.onnx"), "weights");
    writeFileSync(path.join(folder, "tokenizer.json"), "{}");
    const model = resolveModelFolder(folder, root);
    const cacheFolder = path.join(root, ".toolexec", "cache", "tool-search");
    const hash = hashModelCached(model, cacheFolder);
    expect(hash).toBe(hashModel(model));
    // The record is what answers next time: a planted hash under the same fingerprint comes back.
    const record = path.join(cacheFolder, "model-hashes.json");
    const planted = "f".repeat(64);
    const [fingerprint] = Object.keys(JSON.parse(readFileSync(record, "utf8")) as Record<string, string>);
    writeFileSync(record, JSON.stringify({ [fingerprint!]: planted }));
    expect(hashModelCached(model, cacheFolder)).toBe(planted);
    // New weights of another size and time: hashed afresh.
    writeFileSync(path.join(folder, "model.onnx"), "other weights");
    utimesSync(path.join(folder, "model.onnx"), new Date(), new Date(Date.now() + 5_000));
    expect(hashModelCached(model, cacheFolder)).toBe(hashModel(model));
    expect(hashModelCached(model, cacheFolder)).not.toBe(hash);
  });
});
