/**
 * The model's hash without reading its weights at every start: hashing a 23 MB model costs 50–130 ms
 * of the main thread, and a second executor over the same tools needs it before any cached vector.
 * The hash is kept beside the vector cache, keyed by each file's path, size and modification time;
 * a file that changes on disk changes one of these, and is hashed again.
 */
import { readFileSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { hashModel, modelFiles, type ModelFolder } from "./model-folder.js";

const HASHES_FILE = "model-hashes.json";

/** What a hash was computed from: each file's path, size and modification time. */
function fingerprintOf(model: ModelFolder): string {
  return JSON.stringify(modelFiles(model).map((file) => {
    const stat = statSync(file);
    return [file, stat.size, stat.mtimeMs];
  }));
}

function readHashes(file: string): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/**
 * `hashModel(model)`, from `cacheFolder`'s record when the files are unchanged; a read-only project
 * hashes every time.
 *
 * @example
 * const hash = hashModelCached(model, "/project/.toolexec/cache/tool-search");
 */
export function hashModelCached(model: ModelFolder, cacheFolder: string): string {
  const file = path.join(cacheFolder, HASHES_FILE);
  const fingerprint = fingerprintOf(model);
  const hashes = readHashes(file);
  const known = hashes[fingerprint];
  if (typeof known === "string" && /^[0-9a-f]{64}$/.test(known)) return known;
  const hash = hashModel(model);
  try {
    mkdirSync(cacheFolder, { recursive: true });
    writeFileSync(file, JSON.stringify({ ...hashes, [fingerprint]: hash }));
  } catch {
    // A read-only project: hashed again next time.
  }
  return hash;
}
