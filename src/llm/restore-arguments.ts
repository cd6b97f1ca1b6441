/**
 * A strict OpenAI schema makes optional properties required-but-nullable, so a model sends
 * `"days": null` for "not given". The registry tool's own schema may not accept `null` there: these
 * nulls are removed before the call, wherever the original schema does not itself accept `null`.
 */
import type { JsonSchema } from "../index.js";
import { inlineReferences } from "./inline-references.js";
import { acceptsNull } from "./to-strict-schema.js";
import { isPlainObject } from "./is-plain-object.js";


/**
 * A copy of `value` without the nulls strict mode added for properties the schema leaves optional.
 *
 * @example
 * removeAddedNulls({ city: "Oslo", days: null }, { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } }, required: ["city"] });
 * // { city: "Oslo" }
 */
export function removeAddedNulls(value: unknown, schema: JsonSchema): unknown {
  return walk(value, inlineReferences(schema));
}

function walk(value: unknown, schema: unknown): unknown {
  if (!isPlainObject(schema)) return value;
  if (Array.isArray(value)) return isPlainObject(schema.items) ? value.map((item) => walk(item, schema.items)) : value;
  if (!isPlainObject(value)) return value;
  const parts = [schema, ...(Array.isArray(schema.allOf) ? schema.allOf : [])].filter(isPlainObject);
  const properties: Record<string, unknown> = Object.assign({}, ...parts.map((part) => (isPlainObject(part.properties) ? part.properties : {})));
  const required = new Set(parts.flatMap((part) => (Array.isArray(part.required) ? part.required : [])));
  const alternatives = [...(Array.isArray(schema.anyOf) ? schema.anyOf : []), ...(Array.isArray(schema.oneOf) ? schema.oneOf : [])].filter(isPlainObject);
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const declared = properties[key] ?? alternatives.map((alternative) => (isPlainObject(alternative.properties) ? alternative.properties[key] : undefined)).find((found) => found !== undefined);
    if (item === null && !required.has(key) && declared !== undefined && !acceptsNull(declared)) continue;
    copy[key] = walk(item, declared);
  }
  return copy;
}
