/**
 * A schema of any supported dialect as its draft 2020-12 equivalent, for the doors where others
 * read it (`listTools`, the LLM adapters, `serve`): models, providers and MCP clients know 2020-12
 * (MCP's default dialect), and would misread draft-04's boolean `exclusiveMinimum` or tuple `items`.
 * The registry keeps the original and validates in its own dialect; this is only what is shown.
 */
import type { JsonSchema } from "../plugin-contract.js";
import { isSimpleValidSchema } from "./is-simple-valid-schema.js";
import { DIALECT_URIS, schemaDialect, type SchemaDialect } from "./schema-dialect.js";
import { MAX_SCHEMA_DEPTH, SCHEMA_KEYWORDS, SCHEMA_MAP_KEYWORDS, type SchemaNode } from "./schema-keywords.js";

const isNode = (value: unknown): value is SchemaNode => value !== null && typeof value === "object" && !Array.isArray(value);

/** What an anchor name may be in 2020-12. */
const ANCHOR = /^[A-Za-z_][-A-Za-z0-9._]*$/;
/** The anchor a 2019-09 `$recursiveAnchor: true` becomes. */
const RECURSIVE_ANCHOR = "recursive";

interface Conversion {
  dialect: SchemaDialect;
  /** The root says `$recursiveAnchor: true` (2019-09): `$recursiveRef` becomes a `$dynamicRef`. */
  recursive: boolean;
}

/** `id` (draft-04) or a `$id` with a fragment (draft-06/07): the base becomes `$id`, a plain name `$anchor`. */
function convertIdentifier(value: string, out: SchemaNode): void {
  const hash = value.indexOf("#");
  const base = hash === -1 ? value : value.slice(0, hash);
  const fragment = hash === -1 ? "" : value.slice(hash + 1);
  if (base !== "") out.$id = base;
  if (ANCHOR.test(fragment)) out.$anchor = fragment;
}

/**
 * The JSON pointer of a local `$ref`, with `definitions`, tuple `items` and `dependencies` renamed as
 * in 2020-12. The walk follows the schema, so a property named "definitions" keeps its name.
 */
function convertPointer(reference: string, root: unknown): string {
  if (!reference.startsWith("#/")) return reference;
  const segments = reference.slice(2).split("/");
  let node: unknown = root;
  let atKeyword = true;
  for (let index = 0; index < segments.length; index++) {
    const key = decodeURIComponent(segments[index]!).replace(/~1/g, "/").replace(/~0/g, "~");
    const value = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined;
    if (atKeyword) {
      if (!SCHEMA_KEYWORDS.has(key) && !SCHEMA_MAP_KEYWORDS.has(key)) break;
      if (key === "definitions") segments[index] = "$defs";
      else if (key === "dependencies") segments[index] = "dependentSchemas";
      else if (key === "items" && Array.isArray(value)) segments[index] = "prefixItems";
      // A name (in a map) or an index (in a list) comes next; else another keyword.
      atKeyword = !SCHEMA_MAP_KEYWORDS.has(key) && !Array.isArray(value);
    } else atKeyword = true;
    node = value;
  }
  return `#/${segments.join("/")}`;
}

/** `exclusiveMinimum: true` beside `minimum: n` is `exclusiveMinimum: n` from draft-06 on; `false` says nothing; numbers stay. */
function convertBounds(node: SchemaNode, out: SchemaNode): void {
  for (const [exclusive, inclusive] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]] as const) {
    if (typeof node[exclusive] !== "boolean") continue;
    delete out[exclusive];
    if (node[exclusive] === true && typeof node[inclusive] === "number") {
      out[exclusive] = node[inclusive];
      delete out[inclusive];
    }
  }
}

function convertMap(value: unknown, conversion: Conversion, root: unknown, depth: number): unknown {
  if (!isNode(value)) return value;
  const out: SchemaNode = {};
  for (const name of Object.keys(value)) out[name] = convertNode(value[name], conversion, root, depth + 1);
  return out;
}

/** `dependencies` split as 2019-09 did: lists of names to `dependentRequired`, schemas to `dependentSchemas`. */
function convertDependencies(value: unknown, out: SchemaNode, conversion: Conversion, root: unknown, depth: number): void {
  if (!isNode(value)) return;
  for (const name of Object.keys(value)) {
    const target = Array.isArray(value[name]) ? "dependentRequired" : "dependentSchemas";
    const converted = target === "dependentRequired" ? value[name] : convertNode(value[name], conversion, root, depth + 1);
    out[target] = { ...(out[target] as SchemaNode | undefined), [name]: converted };
  }
}

/** One keyword of a schema object, written into `out` as 2020-12 says it. */
function convertKeyword(keyword: string, value: unknown, node: SchemaNode, out: SchemaNode, conversion: Conversion, root: unknown, depth: number): void {
  const { dialect } = conversion;
  const legacy = dialect !== "2019-09";
  if (keyword === "$schema" && depth === 0) out.$schema = DIALECT_URIS["2020-12"];
  else if (keyword === "id" && dialect === "draft-04") {
    if (typeof value === "string") convertIdentifier(value, out);
  } else if (keyword === "id" && typeof value === "string") {
    // `id` means nothing after draft-04, and a 2020-12 reader may refuse it.
  } else if (keyword === "$id" && legacy && typeof value === "string") convertIdentifier(value, out);
  else if (keyword === "$ref" && typeof value === "string") out.$ref = convertPointer(value, root);
  else if (keyword === "$recursiveRef") out[conversion.recursive ? "$dynamicRef" : "$ref"] = conversion.recursive ? `#${RECURSIVE_ANCHOR}` : "#";
  else if (keyword === "$recursiveAnchor") {
    if (value === true) out.$dynamicAnchor = RECURSIVE_ANCHOR;
  } else if (keyword === "definitions" || keyword === "$defs") out.$defs = { ...(out.$defs as SchemaNode | undefined), ...(convertMap(value, conversion, root, depth) as SchemaNode) };
  else if (keyword === "dependencies") convertDependencies(value, out, conversion, root, depth);
  else if (keyword === "items" && Array.isArray(value)) {
    out.prefixItems = value.map((item) => convertNode(item, conversion, root, depth + 1));
    if (node.additionalItems !== undefined) out.items = convertNode(node.additionalItems, conversion, root, depth + 1);
  } else if (keyword === "additionalItems") {
    // Only meaningful beside tuple `items`, where it became `items`.
  } else if (SCHEMA_MAP_KEYWORDS.has(keyword)) out[keyword] = convertMap(value, conversion, root, depth);
  else if (SCHEMA_KEYWORDS.has(keyword)) out[keyword] = Array.isArray(value) ? value.map((item) => convertNode(item, conversion, root, depth + 1)) : convertNode(value, conversion, root, depth + 1);
  else out[keyword] = value;
}

function convertNode(node: unknown, conversion: Conversion, root: unknown, depth: number): unknown {
  if (!isNode(node) || depth > MAX_SCHEMA_DEPTH) return node;
  const out: SchemaNode = {};
  // Constraints beside a `$ref` stay: ajv applies them in every dialect, so the executor does too.
  for (const keyword of Object.keys(node)) {
    convertKeyword(keyword, node[keyword], node, out, conversion, root, depth);
  }
  // Boolean bounds mean draft-04's even in a schema that declares a later dialect (where they are invalid).
  convertBounds(node, out);
  return out;
}

const converted = new WeakMap<object, JsonSchema>();

/**
 * The draft 2020-12 equivalent of `schema`, in whatever dialect it is written (see `schemaDialect`):
 * `definitions` become `$defs` (references follow), draft-04's `id` `$id` and boolean exclusive
 * bounds numbers, tuple `items` `prefixItems`, `dependencies` `dependentRequired`/`dependentSchemas`.
 * A 2020-12 schema, or one with an unknown `$schema`, comes back as it is (the same object).
 * Remembered per schema object.
 *
 * @example
 * toDraft2020Schema({ $schema: "http://json-schema.org/draft-04/schema#", type: "number", minimum: 0, exclusiveMinimum: true });
 * // { $schema: "https://json-schema.org/draft/2020-12/schema", type: "number", exclusiveMinimum: 0 }
 */
export function toDraft2020Schema(schema: JsonSchema): JsonSchema {
  // Most schemas mean the same in every dialect the fast check knows; only a declared one changes.
  if (isSimpleValidSchema(schema) && (schema.$schema === undefined || schema.$schema === DIALECT_URIS["2020-12"])) return schema;
  const known = converted.get(schema);
  if (known) return known;
  const dialect = schemaDialect(schema);
  const result = dialect === undefined || dialect === "2020-12" ? schema : (convertNode(schema, { dialect, recursive: schema.$recursiveAnchor === true }, schema, 0) as JsonSchema);
  converted.set(schema, result);
  return result;
}
