/**
 * A fast vouch for the schemas most tools declare. ajv's meta-schema check costs ~4 µs a schema
 * once compiled, and compiling the 2020-12 meta-schema costs ~70 ms at the first check; two more
 * walks look for patterns that do not compile or that the linear engine cannot run. Together they
 * were most of the start-up of a registry of 10,000 tools. Most schemas use a small set of keywords
 * with obviously valid values, so one walk settles all three, remembered per schema object.
 *
 * This check only ever answers "valid" or "ask the full checks": `true` means every supported
 * meta-schema (draft 2020-12, 2019-09, 07) accepts the schema, it has no reference to resolve, and
 * each `pattern` compiles and runs on the linear engine; `false` means nothing, and ajv and the
 * pattern walks decide and word each problem. Its rules are therefore the intersection of those
 * meta-schemas (draft-07's `enum` needs an item; 2020-12's `items` takes no array), and any
 * keyword outside the table below sends the schema to the full checks. A test compares it with them.
 */
import { findLinearPatternProblem } from "./linear-pattern.js";

/** A keyword's check: its value, and the depth of the schema it stands in. */
type Check = (value: unknown, depth: number) => boolean;

/** The `$schema` values ajv is set up for (see schema-validator.ts); at the root only. */
const KNOWN_DIALECTS = new Set([
  "https://json-schema.org/draft/2020-12/schema",
  "https://json-schema.org/draft/2019-09/schema",
  "http://json-schema.org/draft-07/schema#",
  "http://json-schema.org/draft-07/schema",
]);

const SIMPLE_TYPES = new Set(["array", "boolean", "integer", "null", "number", "object", "string"]);

/** Keys that make ajv compile the schema to resolve them, wherever they stand (see `hasReferences`). */
const REFERENCE_KEYS = new Set(["$ref", "$dynamicRef", "$recursiveRef"]);

/** Real tool schemas nest a few levels; deeper ones are left to ajv. */
const MAX_DEPTH = 32;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** A JSON value with no reference key anywhere (ajv would compile the schema to resolve it). */
function isPlainData(value: unknown, depth: number): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (depth > MAX_DEPTH) return false;
  if (Array.isArray(value)) return everyItem(value, (item) => isPlainData(item, depth + 1));
  if (!isPlainObject(value)) return false;
  for (const key of Object.keys(value)) if (REFERENCE_KEYS.has(key) || !isPlainData(value[key], depth + 1)) return false;
  return true;
}

/** Items distinct as JSON Schema compares them; only scalars, whose equality `===` gets right (0 and -0 are one number). */
function areDistinctScalars(items: unknown[]): boolean {
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    if (item !== null && typeof item === "object") return false;
  }
  // An enum or a required list is short: comparing pairs beats building a set.
  if (items.length > 16) return new Set(items).size === items.length;
  for (let index = 1; index < items.length; index++) {
    for (let earlier = 0; earlier < index; earlier++) if (items[earlier] === items[index]) return false;
  }
  return true;
}

/** Every item passes `check` (holes included: a hole is no schema). */
function everyItem(items: unknown[], check: (item: unknown) => boolean): boolean {
  for (let index = 0; index < items.length; index++) if (!check(items[index])) return false;
  return true;
}

/** Compiles as ECMAScript (with "u", as ajv does) and runs on the linear engine; both remembered per source. */
function isRunnablePattern(source: string): boolean {
  try {
    return findLinearPatternProblem(source) === undefined;
  } catch {
    return false;
  }
}

function isValidType(value: unknown): boolean {
  if (typeof value === "string") return SIMPLE_TYPES.has(value);
  return Array.isArray(value) && value.length > 0 && everyItem(value, (item) => typeof item === "string" && SIMPLE_TYPES.has(item)) && areDistinctScalars(value);
}

const isSchema: Check = (value, depth) => isSubschema(value, depth + 1);
const isSchemaList: Check = (value, depth) => Array.isArray(value) && value.length > 0 && everyItem(value, (item) => isSubschema(item, depth + 1));
const isSchemaMap: Check = (value, depth) => {
  if (!isPlainObject(value)) return false;
  for (const name in value) if (REFERENCE_KEYS.has(name) || !isSubschema(value[name], depth + 1)) return false;
  return true;
};
const isString = (value: unknown): boolean => typeof value === "string";
const isRunnablePatternString: Check = (value) => typeof value === "string" && isRunnablePattern(value);
const isBoolean: Check = (value) => typeof value === "boolean";
const isCount: Check = (value) => Number.isInteger(value) && (value as number) >= 0;
const isFiniteNumber: Check = (value) => typeof value === "number" && Number.isFinite(value);
const isPositiveNumber: Check = (value) => typeof value === "number" && Number.isFinite(value) && value > 0;
const isNameList: Check = (value) => Array.isArray(value) && everyItem(value, isString) && areDistinctScalars(value);
const isEnumList: Check = (value, depth) => Array.isArray(value) && value.length > 0 && areDistinctScalars(value) && isPlainData(value, depth + 1);
const isDataArray: Check = (value, depth) => Array.isArray(value) && isPlainData(value, depth + 1);

/** Keywords whose meaning and meta-schema rule are the same in drafts 07, 2019-09 and 2020-12. */
const RULES: ReadonlyMap<string, Check> = new Map<string, Check>([
  ["type", isValidType],
  ["properties", isSchemaMap],
  ["required", isNameList],
  ["additionalProperties", isSchema],
  ["items", isSchema],
  ["propertyNames", isSchema],
  ["contains", isSchema],
  ["not", isSchema],
  ["if", isSchema],
  ["then", isSchema],
  ["else", isSchema],
  ["anyOf", isSchemaList],
  ["allOf", isSchemaList],
  ["oneOf", isSchemaList],
  ["enum", isEnumList],
  ["const", isPlainData],
  ["default", isPlainData],
  ["examples", isDataArray],
  ["title", isString],
  ["description", isString],
  ["$comment", isString],
  ["format", isString],
  ["pattern", isRunnablePatternString],
  ["contentMediaType", isString],
  ["contentEncoding", isString],
  ["minLength", isCount],
  ["maxLength", isCount],
  ["minItems", isCount],
  ["maxItems", isCount],
  ["minProperties", isCount],
  ["maxProperties", isCount],
  ["minimum", isFiniteNumber],
  ["maximum", isFiniteNumber],
  ["exclusiveMinimum", isFiniteNumber],
  ["exclusiveMaximum", isFiniteNumber],
  ["multipleOf", isPositiveNumber],
  ["uniqueItems", isBoolean],
  ["readOnly", isBoolean],
  ["writeOnly", isBoolean],
  ["deprecated", isBoolean],
]);

function isSubschema(value: unknown, depth: number): boolean {
  if (typeof value === "boolean") return true;
  if (depth > MAX_DEPTH || !isPlainObject(value)) return false;
  // `for…in` allocates no key list; a key it adds (an enumerable Object.prototype property) can only refuse.
  for (const keyword in value) {
    if (keyword === "$schema" && depth === 0) {
      if (!KNOWN_DIALECTS.has(value[keyword] as string)) return false;
      continue;
    }
    const check = RULES.get(keyword);
    if (check === undefined || !check(value[keyword], depth)) return false;
  }
  return true;
}

/** Verdicts by schema object: tools.json's check and the registry's ask about the same objects. */
const verdicts = new WeakMap<object, boolean>();

/**
 * True when the schema certainly passes `checkSchema`, `checkSchemaPatterns` and
 * `findUncheckedPatterns` (valid, nothing to resolve, every pattern runnable); false when they must
 * look. Remembered per schema object: schemas are not mutated once loaded.
 *
 * @example
 * isSimpleValidSchema({ type: "object", properties: { q: { type: "string" } } }); // true
 * isSimpleValidSchema({ type: "object", properties: { q: { $ref: "#/$defs/q" } } }); // false: ajv decides
 */
export function isSimpleValidSchema(schema: unknown): boolean {
  if (!isPlainObject(schema)) return false;
  let verdict = verdicts.get(schema);
  if (verdict === undefined) {
    verdict = isSubschema(schema, 0);
    verdicts.set(schema, verdict);
  }
  return verdict;
}
