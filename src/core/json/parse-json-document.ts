/**
 * A strict JSON parser that remembers where every value and key stands, so config errors can name
 * line and column, and that reports duplicate keys (which `JSON.parse` silently lets the last win).
 *
 * Fast path: a valid document is parsed by the engine's `JSON.parse` (which keeps `__proto__` as
 * data) plus a count of its keys against the text's (`is-plain-json-text.ts`: a repeated key or
 * excessive nesting sends it to the full parser); the location index is built only when something
 * asks where a value stands (an error or a warning). An 11 MB tools.json of 10,000 tools takes
 * ~40 ms of CPU. Anything unusual falls back to the full parser, which is the authority on every
 * error message (`locating-json-parser.ts`). That parser (and so the first location asked for) costs
 * ~1 s on such a file.
 */

import { isPlainJsonText } from "./is-plain-json-text.js";
import { MAX_NESTING_DEPTH, parseWithLocations } from "./locating-json-parser.js";

export { MAX_NESTING_DEPTH } from "./locating-json-parser.js";

export type JsonPath = ReadonlyArray<string | number>;

export interface JsonLocation {
  line: number;
  column: number;
}

export interface JsonDocument {
  value: unknown;
  /** Where the value at `path` starts, or its key when `key` is true; the nearest ancestor if absent. */
  locate(path: JsonPath, options?: { key?: boolean }): JsonLocation;
  duplicateKeys: Array<{ path: JsonPath; location: JsonLocation }>;
}

export type ParseJsonResult =
  | { ok: true; document: JsonDocument }
  | { ok: false; message: string; location: JsonLocation };

/** Parse `text` as one JSON document. Never throws. */
export function parseJsonDocument(text: string): ParseJsonResult {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    return parseWithLocations(source);
  }
  if (!isPlainJsonText(source, value, MAX_NESTING_DEPTH)) return parseWithLocations(source);
  let located: JsonDocument | undefined;
  const locate: JsonDocument["locate"] = (path, options) => {
    located ??= (parseWithLocations(source) as Extract<ParseJsonResult, { ok: true }>).document;
    return located.locate(path, options);
  };
  return { ok: true, document: { value, locate, duplicateKeys: [] } };
}

/** `tools[2].inputSchema.properties["a b"]` */
export function formatJsonPath(path: JsonPath): string {
  let result = "";
  for (const segment of path) {
    if (typeof segment === "number") result += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) result += result === "" ? segment : `.${segment}`;
    else result += `[${JSON.stringify(segment)}]`;
  }
  return result;
}
