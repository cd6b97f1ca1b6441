/**
 * Unit length for a vector. A module of its own: the model's worker imports it, and importing it from
 * the word-vector embedding loaded that module's tokenizer and tables too (~13 ms of the worker's
 * start, which a second executor's first search waits for).
 */

/** The vector scaled to unit length (in place); a zero vector stays zero. */
export function normalizeVector(vector: Float32Array): Float32Array {
  let norm = 0;
  for (let at = 0; at < vector.length; at++) norm += (vector[at] as number) * (vector[at] as number);
  norm = Math.sqrt(norm);
  if (norm > 0) for (let at = 0; at < vector.length; at++) vector[at] = (vector[at] as number) / norm;
  return vector;
}
