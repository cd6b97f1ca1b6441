/**
 * A structured value cut to a budget on its structure: whole array items and object keys while they
 * fit, the first one that does not cut inside when there is room for it, strings cut at a clean
 * boundary, and binary blobs (MCP image and audio blocks, resource blobs) kept whole or replaced by a
 * note naming their size and where `read_result` finds them. Says what it left out where.
 */
import { cleanCutEnd } from "./clean-cut.js";
import { formatCount, type OmittedPart } from "./result-budget.js";

/** Below this many characters left, a part that does not fit whole is left out rather than cut inside. */
const MIN_PARTIAL_CHARS = 64;

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** An MCP image or audio block (`{ data, mimeType }`) or a resource blob (`{ blob, mimeType }`): counted by size, never cut inside. */
export function blobData(value: unknown): string | undefined {
  if (!isPlainObject(value) || typeof value.mimeType !== "string") return undefined;
  if (typeof value.data === "string") return value.data;
  return typeof value.blob === "string" ? value.blob : undefined;
}

/** Roughly how many characters `value` takes as JSON, counting no further than just past `limit`. */
export function jsonSizeUpTo(value: unknown, limit: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && total <= limit) {
    const current = stack.pop();
    if (typeof current === "string") total += current.length + 2;
    else if (current === null || typeof current !== "object") total += String(current).length;
    else if (Array.isArray(current)) {
      total += 1 + current.length;
      for (let index = current.length - 1; index >= 0; index--) stack.push(current[index]);
    } else {
      total += 1;
      for (const key in current) {
        total += key.length + 4;
        stack.push((current as Record<string, unknown>)[key]);
      }
    }
  }
  return total;
}

/** A path step as JSON path: `.name` when it is an identifier, else `["name"]`, `[3]`. */
export function childPath(path: string, step: string | number): string {
  if (typeof step === "number") return `${path}[${step}]`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(step) ? `${path}.${step}` : `${path}[${JSON.stringify(step)}]`;
}

interface CutState {
  remaining: number;
  omitted: OmittedPart[];
  /** The `read_result` call that reads a path, for the notes that replace blobs. */
  readCall(path: string): string;
}

function cutString(text: string, path: string, state: CutState): string {
  const keep = Math.max(0, state.remaining - 3);
  const end = keep === 0 ? 0 : cleanCutEnd(text, 0, keep);
  state.omitted.push({ path, unit: "characters", left: text.length - end, of: text.length });
  state.remaining = 0;
  return `${text.slice(0, end)}…`;
}

function replaceBlob(node: Record<string, unknown>, data: string, path: string, state: CutState): unknown {
  state.omitted.push({ path, unit: "characters", left: data.length, of: data.length });
  const note = `[${node.mimeType as string}, ${formatCount(data.length)} characters of base64 left out: ${state.readCall(path)}]`;
  state.remaining -= note.length + 40;
  return { ...(typeof node.type === "string" ? { type: node.type } : {}), mimeType: node.mimeType, omitted: note };
}

function cutArray(items: unknown[], path: string, state: CutState): unknown[] {
  state.remaining -= 2;
  const kept: unknown[] = [];
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    const size = jsonSizeUpTo(item, state.remaining) + 1;
    if (size <= state.remaining) {
      kept.push(item);
      state.remaining -= size;
      continue;
    }
    // The first item that does not fit is cut inside when there is room: the reader sees its shape.
    if (state.remaining >= MIN_PARTIAL_CHARS && (index === 0 || blobData(item) !== undefined)) kept.push(cutNode(item, childPath(path, index), state));
    break;
  }
  if (kept.length < items.length) state.omitted.push({ path, unit: "items", left: items.length - kept.length, of: items.length });
  return kept;
}

function cutObject(node: Record<string, unknown>, path: string, state: CutState): Record<string, unknown> {
  state.remaining -= 2;
  const kept: Record<string, unknown> = {};
  const keys = Object.keys(node);
  let left = 0;
  for (const key of keys) {
    const value = node[key];
    const keySize = key.length + 4;
    const size = jsonSizeUpTo(value, state.remaining) + keySize;
    if (size <= state.remaining) {
      kept[key] = value;
      state.remaining -= size;
    } else if (state.remaining - keySize >= MIN_PARTIAL_CHARS) {
      state.remaining -= keySize;
      kept[key] = cutNode(value, childPath(path, key), state);
    } else left++;
  }
  if (left > 0) state.omitted.push({ path, unit: "keys", left, of: keys.length });
  return kept;
}

function cutNode(node: unknown, path: string, state: CutState): unknown {
  if (typeof node === "string") return cutString(node, path, state);
  const blob = blobData(node);
  if (blob !== undefined) return replaceBlob(node as Record<string, unknown>, blob, path, state);
  if (Array.isArray(node)) return cutArray(node, path, state);
  if (isPlainObject(node)) return cutObject(node, path, state);
  state.remaining = 0;
  return null;
}

/**
 * `value` cut to about `maxChars` characters of JSON (escapes can make it a little longer: the caller
 * checks), with what was left out where.
 *
 * @example
 * cutValue([{ id: 1 }, { id: 2 }, { id: 3 }], 20, (path) => `read_result {"path":"${path}"}`);
 * // { value: [{ id: 1 }, { id: 2 }], omitted: [{ path: "$", unit: "items", left: 1, of: 3 }] }
 */
export function cutValue(value: unknown, maxChars: number, readCall: (path: string) => string): { value: unknown; omitted: OmittedPart[] } {
  const state: CutState = { remaining: maxChars, omitted: [], readCall };
  const cut = cutNode(value, "$", state);
  return { value: cut, omitted: state.omitted };
}
