/**
 * Prepared sources by the code they came from. The parser pre-pass (acorn, the escapes, the
 * wrapper) is the largest share of the host CPU a run costs in code mode itself, and it is a pure
 * function of the code's text: a saved tool's code is prepared once per version of the tool, and
 * code sent again (an agent's retry, the same program on new `input`) is not parsed again.
 */
import { prepareSource, type PrepareResult } from "./prepare-source.js";

/** Recent codes kept. */
export const PREPARED_SOURCE_CACHE_ENTRIES = 128;
/** Longer code is prepared each time it comes (a saved tool's is kept whatever its length): 128 of these stay small. */
export const MAX_CACHED_CODE_CHARS = 16 * 1024;

export interface PreparedSourceCache {
  /** `code` prepared; `owner` (a saved tool) keeps its code's preparation for as long as it lives. */
  prepare(code: string, owner?: object): PrepareResult;
}

/**
 * @example
 * const sources = createPreparedSourceCache();
 * const prepared = sources.prepare("1 + 1"); // parsed
 * sources.prepare("1 + 1"); // the same result, not parsed again
 */
export function createPreparedSourceCache(): PreparedSourceCache {
  /** Least recently used first (a hit moves its entry to the end). */
  const recent = new Map<string, PrepareResult>();
  /** A saved tool is replaced by a new object when its file changes, never changed in place. */
  const owned = new WeakMap<object, PrepareResult>();
  /**
   * The code of the entry last in `recent`: a hit on it (the same code again, the common case)
   * moves nothing. A move deletes from a Map, which V8 answers with a new table when the Map's
   * only entry goes, and that table chain outlived the scavenges.
   */
  let newest: string | undefined;
  return {
    prepare(code, owner) {
      const ownedResult = owner && owned.get(owner);
      if (ownedResult) return ownedResult;
      let result = recent.get(code);
      if (result === undefined) {
        result = prepareSource(code);
        if (code.length <= MAX_CACHED_CODE_CHARS) {
          recent.set(code, result);
          newest = code;
          if (recent.size > PREPARED_SOURCE_CACHE_ENTRIES) recent.delete(recent.keys().next().value!);
        }
      } else if (code !== newest) {
        recent.delete(code);
        recent.set(code, result);
        newest = code;
      }
      if (owner) owned.set(owner, result);
      return result;
    },
  };
}
