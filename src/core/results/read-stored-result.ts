/**
 * One page of a stored result, as `read_result` answers: a text page of the whole value (the string,
 * or its JSON) by character offset; with `path`, the value at that place — whole when it fits, an
 * array by items, a long string or object as text pages.
 */
import type { PluginResult } from "../plugin-contract.js";
import { toolError } from "../tool-result.js";
import { cleanCutEnd } from "./clean-cut.js";
import { childPath, jsonSizeUpTo } from "./cut-value.js";
import { parseJsonPath, valueAtPath } from "./json-path.js";
import { formatCount } from "./result-budget.js";
import type { StoredResult } from "./result-store.js";

/** What `read_result` is asked. */
export interface ReadResultRequest {
  handle: string;
  offset?: number;
  limit?: number;
  path?: string;
}

/** What `read_result` answers: `text` for a text page, `value` for a value (or a page of array items). */
export type ReadResultPage = ({ text: string } | { value: unknown }) & { offset: number; nextOffset: number | null; total: number };

function textPage(text: string, offset: number, limit: number): PluginResult {
  if (offset > text.length) return toolError("INVALID_INPUT", `offset ${formatCount(offset)} is past the end: the text has ${formatCount(text.length)} characters`);
  const end = cleanCutEnd(text, offset, limit);
  const page: ReadResultPage = { text: text.slice(offset, end), offset, nextOffset: end < text.length ? end : null, total: text.length };
  return { ok: true, value: page };
}

function itemsPage(items: unknown[], path: string, offset: number, limit: number): PluginResult {
  if (offset > items.length) return toolError("INVALID_INPUT", `offset ${formatCount(offset)} is past the end: ${path} has ${formatCount(items.length)} items`);
  let end = offset;
  let size = 2;
  while (end < items.length) {
    const itemSize = jsonSizeUpTo(items[end], limit) + 1;
    if (size + itemSize > limit) break;
    size += itemSize;
    end++;
  }
  if (end === offset && offset < items.length) {
    const itemPath = childPath(path, offset);
    return toolError("INVALID_INPUT", `The item at ${itemPath} alone is larger than limit ${formatCount(limit)}: read it with "path": ${JSON.stringify(itemPath)}`);
  }
  const page: ReadResultPage = { value: items.slice(offset, end), offset, nextOffset: end < items.length ? end : null, total: items.length };
  return { ok: true, value: page };
}

/**
 * @example
 * readStoredResult(entry, { handle, offset: 25_000 }); // { ok: true, value: { text, offset: 25000, nextOffset: 50000, total } }
 */
export function readStoredResult(entry: StoredResult, request: ReadResultRequest): PluginResult {
  const offset = request.offset ?? 0;
  const limit = request.limit ?? entry.maxChars;
  if (request.path === undefined) return textPage(entry.text, offset, limit);
  const parsed = parseJsonPath(request.path);
  if (!parsed.ok) return toolError("INVALID_INPUT", parsed.message);
  const found = valueAtPath(entry.value, parsed.steps);
  if (!found.ok) {
    const shown = parsed.steps.slice(0, found.missingAt).reduce<string>((path, step) => childPath(path, step), "$");
    return toolError("INVALID_INPUT", `The result has nothing at ${request.path}: ${shown} has no ${JSON.stringify(parsed.steps[found.missingAt])}`);
  }
  const node = found.value;
  if (typeof node === "string") return textPage(node, offset, limit);
  if (Array.isArray(node)) return itemsPage(node, request.path, offset, limit);
  const json = JSON.stringify(node) ?? "null";
  if (offset === 0 && json.length <= limit) return { ok: true, value: { value: node, offset: 0, nextOffset: null, total: json.length } satisfies ReadResultPage };
  return textPage(json, offset, limit);
}
