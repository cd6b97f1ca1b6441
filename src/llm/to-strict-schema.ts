/**
 * OpenAI strict mode (Structured Outputs) accepts a subset of JSON Schema: every object closed
 * (`additionalProperties: false`) with every property required, `anyOf` but no `oneOf`/`allOf`/`not`,
 * and a short list of other keywords. `toStrictSchema` rewrites a schema into that subset when the
 * meaning survives — optional properties become required-but-nullable (`restoreArguments` removes the
 * nulls again before the call) — and otherwise says why not, so the tool is sent non-strict.
 */
import type { JsonSchema } from "../index.js";
import { inlineReferences } from "./inline-references.js";
import { isPlainObject } from "./is-plain-object.js";

/** Either a strict schema or the first reason the schema cannot be made strict. */
export type StrictSchemaResult = { ok: true; schema: JsonSchema } | { ok: false; reason: string };


/** String formats strict mode accepts; others are dropped (the executor still checks them). */
const STRICT_FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);
/** Keywords strict mode accepts as they are. */
const KEPT = ["type", "description", "title", "enum", "const", "pattern", "multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems"];
/** Keywords that constrain values in ways strict mode cannot express. */
const REFUSED = ["not", "if", "then", "else", "patternProperties", "dependentRequired", "dependentSchemas", "propertyNames", "unevaluatedProperties", "unevaluatedItems", "contains", "prefixItems", "uniqueItems", "minProperties", "maxProperties"];

class NotStrict extends Error {}

/**
 * @example
 * toStrictSchema({ type: "object", properties: { city: { type: "string" }, days: { type: "integer" } }, required: ["city"] });
 * // { ok: true, schema: { type: "object", properties: { city: { type: "string" }, days: { type: ["integer", "null"] } },
 * //   required: ["city", "days"], additionalProperties: false } }
 */
export function toStrictSchema(schema: JsonSchema): StrictSchemaResult {
  try {
    const inlined = inlineReferences(schema);
    const converted = strictNode(inlined, "");
    // OpenAI wants an object at the top: no top-level `anyOf`, no nullable object.
    if (converted.type !== "object") throw new NotStrict("the top level is not an object schema");
    return { ok: true, schema: converted as JsonSchema };
  } catch (error) {
    if (error instanceof NotStrict) return { ok: false, reason: error.message };
    throw error;
  }
}

const isObjectSchema = (node: Record<string, unknown>) => node.type === "object" || (node.type === undefined && isPlainObject(node.properties));

function strictNode(node: unknown, path: string): Record<string, unknown> {
  const at = path === "" ? "the top level" : path;
  if (node === false) throw new NotStrict(`${at} accepts no value`);
  if (!isPlainObject(node)) throw new NotStrict(`${at} accepts any value`);
  for (const keyword of REFUSED) if (node[keyword] !== undefined) throw new NotStrict(`${at} uses "${keyword}"`);
  if (Array.isArray(node.allOf)) return strictNode(mergeAllOf(node, at), path);
  const out: Record<string, unknown> = {};
  for (const keyword of KEPT) if (node[keyword] !== undefined) out[keyword] = node[keyword];
  if (typeof node.format === "string" && STRICT_FORMATS.has(node.format)) out.format = node.format;
  if (node.default !== undefined) out.description = [node.description, `Default: ${JSON.stringify(node.default)}.`].filter(Boolean).join(" ");
  const alternatives = node.anyOf ?? node.oneOf;
  if (Array.isArray(alternatives)) out.anyOf = alternatives.map((alternative, index) => strictNode(alternative, `${path}/anyOf/${index}`));
  if (isObjectSchema(node) || (Array.isArray(node.type) && node.type.includes("object"))) Object.assign(out, strictObject(node, path, at));
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes("array")) {
    if (node.items === undefined) throw new NotStrict(`${at} is an array of any items`);
    out.items = strictNode(node.items, `${path}/items`);
  }
  if (out.type === undefined && out.anyOf === undefined && out.enum === undefined && out.const === undefined) throw new NotStrict(`${at} accepts any value`);
  return out;
}

function strictObject(node: Record<string, unknown>, path: string, at: string): Record<string, unknown> {
  if (node.additionalProperties !== undefined && node.additionalProperties !== false) throw new NotStrict(`${at} allows additional properties`);
  // Without `properties`, an object accepts any keys: a map, which strict mode cannot describe.
  if (!isPlainObject(node.properties)) {
    if (node.additionalProperties === false) return { type: node.type ?? "object", properties: {}, required: [], additionalProperties: false };
    throw new NotStrict(`${at} is an object with no declared properties`);
  }
  const required = new Set(Array.isArray(node.required) ? node.required : []);
  const properties: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(node.properties)) {
    const converted = strictNode(child, `${path}/properties/${name}`);
    properties[name] = required.has(name) ? converted : nullable(converted);
  }
  return { type: node.type ?? "object", properties, required: Object.keys(properties), additionalProperties: false };
}

/** A schema that also accepts `null`: the way strict mode expresses "optional". */
export function nullable(schema: Record<string, unknown>): Record<string, unknown> {
  if (acceptsNull(schema)) return schema;
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: "null" }] };
  if (schema.const !== undefined || (schema.type === undefined && schema.enum === undefined)) return { anyOf: [schema, { type: "null" }] };
  const copy: Record<string, unknown> = { ...schema };
  if (schema.type !== undefined) copy.type = [...(Array.isArray(schema.type) ? schema.type : [schema.type]), "null"];
  if (Array.isArray(schema.enum)) copy.enum = [...schema.enum, null];
  return copy;
}

/** Whether a schema says outright that `null` is a valid value. */
export function acceptsNull(schema: unknown): boolean {
  if (!isPlainObject(schema)) return schema === true;
  if (schema.type === "null" || (Array.isArray(schema.type) && schema.type.includes("null"))) return !Array.isArray(schema.enum) || schema.enum.includes(null);
  if (schema.const === null) return true;
  if (schema.type === undefined && Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  const alternatives = schema.anyOf ?? schema.oneOf;
  return Array.isArray(alternatives) && alternatives.some(acceptsNull);
}

/** `allOf` of object schemas merged into one; any other `allOf` cannot be strict. */
function mergeAllOf(node: Record<string, unknown>, at: string): Record<string, unknown> {
  const { allOf, ...rest } = node as { allOf: unknown[] } & Record<string, unknown>;
  const parts = [rest, ...allOf];
  if (!parts.every((part) => isPlainObject(part) && part.anyOf === undefined && part.oneOf === undefined && part.allOf === undefined)) throw new NotStrict(`${at} uses "allOf" with alternatives inside`);
  const merged: Record<string, unknown> = {};
  const properties: Record<string, unknown> = {};
  const required = new Set<unknown>();
  for (const part of parts as Record<string, unknown>[]) {
    for (const [key, value] of Object.entries(part)) {
      if (key === "properties" && isPlainObject(value)) {
        for (const [name, child] of Object.entries(value)) {
          if (properties[name] !== undefined && JSON.stringify(properties[name]) !== JSON.stringify(child)) throw new NotStrict(`${at} uses "allOf" whose parts disagree on property "${name}"`);
          properties[name] = child;
        }
      }
      else if (key === "required" && Array.isArray(value)) value.forEach((name) => required.add(name));
      else if (merged[key] !== undefined && JSON.stringify(merged[key]) !== JSON.stringify(value) && key !== "description" && key !== "title") throw new NotStrict(`${at} uses "allOf" whose parts disagree on "${key}"`);
      else merged[key] = value;
    }
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.size > 0) merged.required = [...required];
  return merged;
}
