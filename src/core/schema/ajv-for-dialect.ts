/**
 * One ajv instance per JSON Schema dialect, each made on the first schema of its dialect: making
 * one and compiling its meta-schema costs tens of milliseconds, and most registries use one dialect.
 * Every instance gets the same safety (linear-time patterns, a linear `url` format and
 * `uniqueItems`) and the same leniency (unknown keywords are annotations; a schema's own `$id` is
 * not registered, so two tools may use one `$id` for different schemas).
 */
import { createRequire } from "node:module";
import { linearRegExp } from "./linear-pattern.js";
import { DIALECT_URIS, type SchemaDialect } from "./schema-dialect.js";
import { uniqueItemsKeyword } from "./unique-items.js";
import { isUrl } from "./url-format.js";

// ajv ships CommonJS with `exports.default`; createRequire sidesteps ESM default-export interop.
const require = createRequire(import.meta.url);
type AjvClass = typeof import("ajv").default;
type Ajv = InstanceType<AjvClass>;
type InstanceDialect = Exclude<SchemaDialect, "draft-06">;
const loaders: Record<InstanceDialect, () => AjvClass> = {
  "draft-04": () => require("ajv-draft-04").default as AjvClass,
  "draft-07": () => require("ajv").default as AjvClass,
  "2019-09": () => require("ajv/dist/2019").default as AjvClass,
  "2020-12": () => require("ajv/dist/2020").default as AjvClass,
};

function createAjv(dialect: InstanceDialect): Ajv {
  // `verbose` puts the failing schema on each error: "did you mean" needs the allowed property names.
  // `validateSchema: false`: a schema is checked against its meta-schema before it is compiled
  // (`checkSchema`, often without ajv); checking it again in `compile` compiled the whole meta-schema
  // at the first compile (~100 ms of CPU for 2020-12: most of a first `code_execution`).
  const ajv = new (loaders[dialect]())({ strict: false, allErrors: true, validateFormats: true, verbose: true, addUsedSchema: false, validateSchema: false, code: { regExp: linearRegExp } });
  // `id` names a schema only in draft-04; later dialects ignore it, where ajv would refuse to compile.
  if (dialect !== "draft-04") ajv.removeKeyword("id");
  const addFormats = require("ajv-formats").default as typeof import("ajv-formats").default;
  addFormats(ajv as never);
  ajv.addFormat("url", isUrl);
  ajv.removeKeyword("uniqueItems");
  ajv.addKeyword(uniqueItemsKeyword);
  return ajv;
}

const instances = new Map<InstanceDialect, Ajv>();
let draft06Added = false;

/** The ajv instance for `dialect`; draft-06 is read by draft-07's, which learns its meta-schema on the first such schema. */
export function ajvForDialect(dialect: SchemaDialect): Ajv {
  const key = dialect === "draft-06" ? "draft-07" : dialect;
  let ajv = instances.get(key);
  if (ajv === undefined) {
    ajv = createAjv(key);
    instances.set(key, ajv);
  }
  if (dialect === "draft-06" && !draft06Added) {
    ajv.addMetaSchema(require("ajv/dist/refs/json-schema-draft-06.json") as object);
    draft06Added = true;
  }
  return ajv;
}

/**
 * `schema` with its `$schema` spelled as ajv registered it (`https://json-schema.org/draft-07/schema`
 * is the same dialect as the `http` form ajv knows); the schema itself when it already is.
 */
export function withRegisteredDialect(schema: Record<string, unknown>, dialect: SchemaDialect): Record<string, unknown> {
  if (typeof schema.$schema !== "string") return schema;
  const registered = DIALECT_URIS[dialect];
  return schema.$schema.replace(/#$/, "") === registered.replace(/#$/, "") ? schema : { ...schema, $schema: registered };
}
