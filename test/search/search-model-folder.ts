/**
 * The real search model for tests: the folder `scripts/fetch-search-model.mjs` builds (CI runs it).
 * Locally, tests that need it skip with a message when it was never fetched; in CI (`CI` set) a
 * missing folder fails them instead, so the model stage can never go untested there.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The model folder, absolute. */
export const SEARCH_MODEL_FOLDER = path.resolve(repositoryRoot, process.env.TOOLEXEC_SEARCH_MODEL ?? ".toolexec/models/all-minilm-l6-v2-int8");

const present = existsSync(path.join(SEARCH_MODEL_FOLDER, "model.onnx"));
if (!present && !process.env.CI) {
  console.warn(`[test/search] skipping the model-stage tests: no model in ${SEARCH_MODEL_FOLDER}; run node scripts/fetch-search-model.mjs`);
}

/** Skip (locally) when the model is absent; in CI, run and fail. */
export const skipWithoutModel = !present && !process.env.CI;
