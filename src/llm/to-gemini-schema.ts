/**
 * Gemini function declarations take an OpenAPI 3.0 subset, not JSON Schema: upper-case `type`,
 * `nullable` instead of a `"null"` type, `anyOf` but no `oneOf`/`allOf`/`const`, string-only `enum`,
 * no `additionalProperties`, no `$ref`. This rewrites a JSON Schema into that subset. What cannot be
 * said is dropped (the executor still validates the original) or, for values, told in the description.
 */
import type { JsonSchema } from "../index.js";
import { inlineReferences } from "./inline-references.js";
import { isPlainObject } from "./is-plain-object.js";

/** Gemini's schema (`Schema` in `@google/genai`), as plain JSON. */
export interface GeminiSchema {
  /**
   * One of {@link GeminiType}. Typed `any` because `@google/genai` types this field with a TypeScript
   * string enum (`Type`), to which no string literal is assignable; its values are these same strings.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type?: any;
  format?: string;
  title?: string;
  description?: string;
  nullable?: boolean;
  enum?: string[];
  items?: GeminiSchema;
  properties?: Record<string, GeminiSchema>;
  required?: string[];
  anyOf?: GeminiSchema[];
  minItems?: string;
  maxItems?: string;
  minLength?: string;
  maxLength?: string;
  minProperties?: string;
  maxProperties?: string;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  default?: unknown;
  example?: unknown;
}

/** The type names Gemini's schema uses. */
export type GeminiType = "STRING" | "NUMBER" | "INTEGER" | "BOOLEAN" | "ARRAY" | "OBJECT" | "NULL";

const TYPES: Record<string, GeminiType> = { string: "STRING", number: "NUMBER", integer: "INTEGER", boolean: "BOOLEAN", array: "ARRAY", object: "OBJECT", null: "NULL" };
/** Formats Gemini documents: `enum` and `date-time` for strings, sizes for numbers. */
const FORMATS = new Set(["enum", "date-time", "float", "double", "int32", "int64"]);
/** Gemini's counts are int64, which its JSON form carries as strings. */
const COUNTS = ["minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties"] as const;

/**
 * @example
 * toGeminiSchema({ type: "object", properties: { unit: { enum: ["C", "F"] }, note: { type: ["string", "null"] } } });
 * // { type: "OBJECT", properties: { unit: { type: "STRING", enum: ["C", "F"] }, note: { type: "STRING", nullable: true } } }
 */
export function toGeminiSchema(schema: JsonSchema): GeminiSchema {
  return convert(inlineReferences(schema));
}

function convert(node: unknown): GeminiSchema {
  if (!isPlainObject(node)) return {};
  if (Array.isArray(node.allOf)) return convert(mergeAllOf(node));
  const out: GeminiSchema = {};
  const notes: string[] = [];
  if (typeof node.title === "string") out.title = node.title;
  if (typeof node.description === "string") out.description = node.description;
  const types = (Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type]).filter((type): type is string => typeof type === "string");
  const nonNull = types.filter((type) => type !== "null");
  if (types.includes("null") && nonNull.length > 0) out.nullable = true;
  if (nonNull.length === 1) out.type = TYPES[nonNull[0]!];
  else if (nonNull.length > 1) out.anyOf = nonNull.map((type) => convert({ ...node, type, description: undefined, title: undefined }));
  else if (types.length === 1) out.type = "NULL";
  const values = node.const !== undefined ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined;
  if (values !== undefined) {
    if (values.includes(null)) out.nullable = true;
    const present = values.filter((value) => value !== null);
    if (present.every((value) => typeof value === "string")) {
      out.type ??= "STRING";
      out.enum = present as string[];
    } else {
      notes.push(`One of: ${present.map((value) => JSON.stringify(value)).join(", ")}.`);
      out.type ??= sharedType(present);
    }
  }
  if (typeof node.format === "string" && FORMATS.has(node.format)) out.format = node.format;
  if (typeof node.pattern === "string") out.pattern = node.pattern;
  for (const count of COUNTS) if (typeof node[count] === "number") out[count] = String(node[count]);
  if (typeof node.minimum === "number") out.minimum = node.minimum;
  if (typeof node.maximum === "number") out.maximum = node.maximum;
  if (node.default !== undefined) out.default = node.default;
  if (Array.isArray(node.examples) && node.examples.length > 0) out.example = node.examples[0];
  if (isPlainObject(node.items)) out.items = convert(node.items);
  if (isPlainObject(node.properties)) {
    out.type ??= "OBJECT";
    out.properties = Object.fromEntries(Object.entries(node.properties).map(([name, child]) => [name, convert(child)]));
    const required = Array.isArray(node.required) ? node.required.filter((name): name is string => typeof name === "string" && name in out.properties!) : [];
    if (required.length > 0) out.required = required;
  }
  const alternatives = node.anyOf ?? node.oneOf;
  if (Array.isArray(alternatives)) Object.assign(out, convertAlternatives(alternatives));
  if (notes.length > 0) out.description = [out.description, ...notes].filter(Boolean).join(" ");
  return out;
}

/** `anyOf`/`oneOf`: a `{ type: "null" }` member becomes `nullable`; one member left is inlined. */
function convertAlternatives(alternatives: unknown[]): GeminiSchema {
  const isNull = (alternative: unknown) => isPlainObject(alternative) && alternative.type === "null";
  const rest = alternatives.filter((alternative) => !isNull(alternative)).map(convert);
  const nullable = rest.length < alternatives.length ? { nullable: true } : {};
  if (rest.length === 1) return { ...rest[0], ...nullable };
  return { anyOf: rest, ...nullable };
}

function sharedType(values: unknown[]): GeminiType | undefined {
  const kinds = new Set(values.map((value) => (Number.isInteger(value) ? "integer" : typeof value)));
  const only = kinds.size === 1 ? [...kinds][0]! : undefined;
  return only === undefined ? undefined : TYPES[only];
}

/** `allOf` merged into one schema: properties and `required` united, other keywords from the last part that has them. */
function mergeAllOf(node: Record<string, unknown>): Record<string, unknown> {
  const { allOf, ...rest } = node as { allOf: unknown[] } & Record<string, unknown>;
  const merged: Record<string, unknown> = {};
  const properties: Record<string, unknown> = {};
  const required: unknown[] = [];
  for (const part of [...allOf, rest].filter(isPlainObject)) {
    const { properties: partProperties, required: partRequired, ...other } = part;
    if (isPlainObject(partProperties)) Object.assign(properties, partProperties);
    if (Array.isArray(partRequired)) required.push(...partRequired);
    Object.assign(merged, other);
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.length > 0) merged.required = [...new Set(required)];
  return merged;
}
