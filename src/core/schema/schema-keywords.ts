/**
 * Where the subschemas of a JSON Schema stand, in every dialect from draft-04 to 2020-12: the
 * walks that look inside a schema (dialect evidence, conversion, pattern checks) must not take a
 * property named "id" or "items" for a keyword, nor an `enum` value for a schema.
 */

/** Keywords whose value is a schema, or an array of schemas (tuple `items` before 2020-12). */
export const SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  "additionalProperties", "additionalItems", "unevaluatedProperties", "unevaluatedItems", "propertyNames", "items", "prefixItems",
  "contains", "not", "if", "then", "else", "allOf", "anyOf", "oneOf",
]);

/** Keywords whose value maps names to schemas (`dependencies` also maps names to lists of names). */
export const SCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"]);

/** Depth past which a walk stops: ajv itself overflows long before, and no tool schema nests so deep. */
export const MAX_SCHEMA_DEPTH = 200;

export type SchemaNode = Record<string, unknown>;

const isNode = (value: unknown): value is SchemaNode => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * Calls `visit` on every schema object inside `schema` (itself included), parents before children,
 * with its path (one array, changed as the walk goes on: copy it to keep it); `visit` returning true
 * stops the walk, and `someSubschema` then returns true.
 *
 * @example
 * someSubschema({ properties: { n: { exclusiveMinimum: true } } }, (node) => typeof node.exclusiveMinimum === "boolean"); // true
 */
export function someSubschema(schema: unknown, visit: (node: SchemaNode, path: ReadonlyArray<string | number>) => boolean): boolean {
  const path: Array<string | number> = [];
  const walkAt = (segments: Array<string | number>, node: unknown, depth: number): boolean => {
    path.push(...segments);
    const stopped = walk(node, depth);
    path.length -= segments.length;
    return stopped;
  };
  const walk = (node: unknown, depth: number): boolean => {
    if (!isNode(node) || depth > MAX_SCHEMA_DEPTH) return false;
    if (visit(node, path)) return true;
    for (const keyword in node) {
      if (!Object.hasOwn(node, keyword)) continue;
      const value = node[keyword];
      if (SCHEMA_KEYWORDS.has(keyword)) {
        if (Array.isArray(value) ? value.some((item, index) => walkAt([keyword, index], item, depth + 1)) : walkAt([keyword], value, depth + 1)) return true;
      } else if (SCHEMA_MAP_KEYWORDS.has(keyword) && isNode(value)) {
        for (const name in value) if (Object.hasOwn(value, name) && walkAt([keyword, name], value[name], depth + 1)) return true;
      }
    }
    return false;
  };
  return walk(schema, 0);
}
