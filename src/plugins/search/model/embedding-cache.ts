/**
 * Tool vectors on disk, one file per model (named by the model's hash), so a second executor over
 * the same tools embeds nothing. Each record is the sha256 of the embedded text and its vector;
 * records are only appended (a changed tool adds one record), and a torn last record is ignored.
 */
import { createHash } from "node:crypto";
import { mkdirSync, openSync, closeSync, writeSync, readFileSync, existsSync, appendFileSync, readdirSync } from "node:fs";
import { endianness } from "node:os";
import path from "node:path";

const MAGIC = "TXEMB001";
const HEADER_BYTES = MAGIC.length + 4;
const KEY_BYTES = 32;

/** Vectors by text for one model, backed by a file. */
export interface EmbeddingCache {
  get(text: string): Float32Array | undefined;
  /** Add vectors and append them to the file (one write). */
  add(entries: ReadonlyArray<readonly [string, Float32Array]>): void;
  readonly size: number;
}

const LITTLE_ENDIAN = endianness() === "LE";

const keyOf = (text: string) => createHash("sha256").update(text).digest("hex");

function readRecords(file: string, dimensions: number, into: Map<string, Float32Array>): void {
  if (!existsSync(file)) return;
  const bytes = readFileSync(file);
  if (bytes.length < HEADER_BYTES || bytes.toString("latin1", 0, MAGIC.length) !== MAGIC || bytes.readUInt32LE(MAGIC.length) !== dimensions) return;
  const recordBytes = KEY_BYTES + dimensions * 4;
  for (let offset = HEADER_BYTES; offset + recordBytes <= bytes.length; offset += recordBytes) {
    const key = bytes.toString("hex", offset, offset + KEY_BYTES);
    const start = bytes.byteOffset + offset + KEY_BYTES;
    // The file is little-endian: on such a machine (nearly all) a record is copied whole.
    const vector = LITTLE_ENDIAN ? new Float32Array(bytes.buffer.slice(start, start + dimensions * 4)) : new Float32Array(dimensions);
    if (!LITTLE_ENDIAN) for (let at = 0; at < dimensions; at++) vector[at] = bytes.readFloatLE(offset + KEY_BYTES + at * 4);
    into.set(key, vector);
  }
}

/** The vector length of a model's cache file already in `folder`, so the cache opens before the model has loaded. */
export function cachedDimensions(folder: string, modelHash: string): number | undefined {
  const prefix = `${modelHash.slice(0, 32)}-`;
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => name.startsWith(prefix) && /^\d+\.vectors$/.test(name.slice(prefix.length)));
  } catch {
    return undefined;
  }
  return names.length === 1 ? Number.parseInt((names[0] as string).slice(prefix.length), 10) : undefined;
}

/**
 * The cache of one model in `folder` (created on the first write). `dimensions` is the model's
 * vector length: a file written for another length is ignored and started over.
 *
 * @example
 * const cache = openEmbeddingCache("/project/.toolexec/cache/tool-search", modelHash, 384);
 */
export function openEmbeddingCache(folder: string, modelHash: string, dimensions: number): EmbeddingCache {
  const file = path.join(folder, `${modelHash.slice(0, 32)}-${dimensions}.vectors`);
  const byKey = new Map<string, Float32Array>();
  readRecords(file, dimensions, byKey);
  const ensureHeader = () => {
    mkdirSync(folder, { recursive: true });
    let descriptor: number;
    try {
      descriptor = openSync(file, "wx");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return;
      throw error;
    }
    const header = Buffer.alloc(HEADER_BYTES);
    header.write(MAGIC, 0, "latin1");
    header.writeUInt32LE(dimensions, MAGIC.length);
    writeSync(descriptor, header);
    closeSync(descriptor);
  };
  return {
    get: (text) => byKey.get(keyOf(text)),
    add(entries) {
      if (entries.length === 0) return;
      const recordBytes = KEY_BYTES + dimensions * 4;
      const buffer = Buffer.alloc(entries.length * recordBytes);
      entries.forEach(([text, vector], row) => {
        const key = keyOf(text);
        byKey.set(key, vector);
        buffer.write(key, row * recordBytes, "hex");
        for (let at = 0; at < dimensions; at++) buffer.writeFloatLE(vector[at] as number, row * recordBytes + KEY_BYTES + at * 4);
      });
      try {
        ensureHeader();
        appendFileSync(file, buffer);
      } catch {
        // A read-only project still searches: the vectors stay in memory for this executor.
      }
    },
    get size() {
      return byKey.size;
    },
  };
}
