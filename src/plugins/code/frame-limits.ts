/**
 * Bounds on the fields sandboxed code sends the host, checked before the host looks anything up,
 * compares names for a "did you mean", searches, traces or logs them. The frame as a whole is
 * already capped (runtime-process.ts), but a field within that cap can still cost the host time
 * that grows with its size: a 4 MB tool name blocked it for seconds in the suggestion alone.
 */
import { MAX_SEARCH_QUERY_LENGTH } from "../../core/tool-names.js";

/**
 * Longest name code may send: a server, a tool, a registry name, or a `describe_tool` argument.
 * Every real one is shorter (server 64, tool 128 characters, `tools.server.tool` under 200).
 */
export const MAX_NAME_LENGTH_FROM_CODE = 256;

/** Longest `search_tools` query code may send, the executor's own limit. */
export const MAX_QUERY_LENGTH_FROM_CODE = MAX_SEARCH_QUERY_LENGTH;

/**
 * Most keys and items the arguments of one call from code may hold, all levels together. The host
 * walks a call's arguments several times (schema check, secrets, redaction, size), about 10 µs per
 * key on a loaded machine: 200,000 keys blocked it 2.2 s. A table of 1,000 rows of 20 columns fits.
 */
export const MAX_ARGUMENT_NODES_FROM_CODE = 25_000;

/** A refusal of one field: `INVALID_INPUT`, naming the field, its length and the limit. */
export interface FieldRefusal {
  code: "INVALID_INPUT";
  message: string;
}

/**
 * Why `value` is too long to be the `label` of a request, or undefined when it fits.
 *
 * @example
 * tooLong("tool name", "x".repeat(300), MAX_NAME_LENGTH_FROM_CODE);
 * // { code: "INVALID_INPUT", message: "The tool name is 300 characters long; the limit is 256" }
 */
export function tooLong(label: string, value: unknown, limit: number): FieldRefusal | undefined {
  if (typeof value !== "string" || value.length <= limit) return undefined;
  return { code: "INVALID_INPUT", message: `The ${label} is ${value.length} characters long; the limit is ${limit}` };
}

/**
 * The first over-long name of a call target (`{ server, tool }` or `{ name }`), or undefined.
 *
 * @example
 * checkTargetNames({ server: "local", tool: "x".repeat(4_000_000) }); // { code: "INVALID_INPUT", message: "The tool name is 4000000 characters long; the limit is 256" }
 */
export function checkTargetNames(target: unknown): FieldRefusal | undefined {
  if (target === null || typeof target !== "object") return undefined;
  const { server, tool, name } = target as Record<string, unknown>;
  return (
    tooLong("server name", server, MAX_NAME_LENGTH_FROM_CODE) ?? tooLong("tool name", tool, MAX_NAME_LENGTH_FROM_CODE) ?? tooLong("tool name", name, MAX_NAME_LENGTH_FROM_CODE)
  );
}

/**
 * Whether `value` holds more than `limit` keys and items, counted without recursion and stopping
 * once past the limit: far cheaper than the walks it spares (no key is compared, copied or matched).
 *
 * @example
 * exceedsNodes({ a: [1, 2], b: { c: 3 } }, 4); // true (a, 1, 2, b, c: 5)
 */
export function exceedsNodes(value: unknown, limit: number): boolean {
  const stack: unknown[] = [value];
  let count = 0;
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    if (Array.isArray(node)) {
      count += node.length;
      if (count > limit) return true;
      for (const child of node) if (child !== null && typeof child === "object") stack.push(child);
      continue;
    }
    for (const key in node) {
      if (++count > limit) return true;
      const child = (node as Record<string, unknown>)[key];
      if (child !== null && typeof child === "object") stack.push(child);
    }
  }
  return false;
}

/**
 * The refusal of arguments with more than MAX_ARGUMENT_NODES_FROM_CODE keys and items, or undefined.
 *
 * @example
 * checkArgumentNodes({ a: 1 }); // undefined
 */
export function checkArgumentNodes(args: unknown): FieldRefusal | undefined {
  if (!exceedsNodes(args, MAX_ARGUMENT_NODES_FROM_CODE)) return undefined;
  return { code: "INVALID_INPUT", message: `The arguments hold more than ${MAX_ARGUMENT_NODES_FROM_CODE} keys and items (all levels together); pass fewer, or a file or reference instead` };
}
