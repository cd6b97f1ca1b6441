/**
 * Local `$ref`s (`#/$defs/…`, `#/definitions/…`) replaced by copies of their targets, because no
 * provider resolves references the same way (Gemini resolves none). A recursive reference is cut at
 * `MAX_REFERENCE_DEPTH` nested expansions into an unconstrained schema: the model still sees the shape
 * a few levels deep, and the executor validates the arguments against the original schema anyway.
 */
import type { JsonSchema } from "../index.js";
import { isPlainObject } from "./is-plain-object.js";

/** How many times one `$ref` may be expanded inside itself before it is cut. */
export const MAX_REFERENCE_DEPTH = 3;
/**
 * How many schema nodes inlining may produce before every further `$ref` is cut too: references that
 * each point at several others multiply, and an MCP server's schema must not stall the host.
 */
export const MAX_INLINED_NODES = 10_000;


/** The target of a local JSON pointer, or `undefined`. */
function resolvePointer(root: JsonSchema, reference: string): unknown {
  if (reference === "#") return root;
  if (!reference.startsWith("#/")) return undefined;
  let target: unknown = root;
  for (const raw of reference.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isPlainObject(target) && !Array.isArray(target)) return undefined;
    target = (target as Record<string, unknown>)[key];
  }
  return target;
}

/**
 * A copy of `schema` with no `$ref`, `$defs` or `definitions`. A reference that cannot be resolved
 * (remote, or a missing target) becomes an unconstrained schema with a description saying so.
 *
 * @example
 * inlineReferences({ type: "object", properties: { a: { $ref: "#/$defs/n" } }, $defs: { n: { type: "number" } } });
 * // { type: "object", properties: { a: { type: "number" } } }
 */
export function inlineReferences(schema: JsonSchema): JsonSchema {
  let nodes = 0;
  const visit = (node: unknown, expanding: readonly string[]): unknown => {
    nodes += 1;
    if (Array.isArray(node)) return node.map((item) => visit(item, expanding));
    if (!isPlainObject(node)) return node;
    const reference = node.$ref;
    if (typeof reference === "string") {
      const { $ref: _reference, ...siblings } = node;
      const target = resolvePointer(schema, reference);
      const depth = expanding.filter((seen) => seen === reference).length;
      const description = typeof siblings.description === "string" ? siblings.description : undefined;
      if (!isPlainObject(target)) return { ...visitProperties(siblings, expanding, visit), description: description ?? `(unresolved reference ${reference})` };
      if (depth >= MAX_REFERENCE_DEPTH || nodes > MAX_INLINED_NODES) return { description: description ?? (typeof target.description === "string" ? target.description : "(a recursive schema, not expanded further)") };
      const expanded = visit(target, [...expanding, reference]) as Record<string, unknown>;
      return { ...expanded, ...visitProperties(siblings, expanding, visit) };
    }
    return visitProperties(node, expanding, visit);
  };
  return visit(schema, []) as JsonSchema;
}

function visitProperties(node: Record<string, unknown>, expanding: readonly string[], visit: (node: unknown, expanding: readonly string[]) => unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$defs" || key === "definitions") continue;
    // `const`, `enum`, `default` and examples are data, not schemas: a `$ref` key inside them stays.
    if (DATA_KEYWORDS.has(key)) copy[key] = value;
    // Keys of these maps are names, not keywords (a property may be called `default`).
    else if (SCHEMA_MAPS.has(key) && isPlainObject(value)) copy[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, visit(child, expanding)]));
    else copy[key] = visit(value, expanding);
  }
  return copy;
}

const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples", "example"]);
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "dependentSchemas"]);
