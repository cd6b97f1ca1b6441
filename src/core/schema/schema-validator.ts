/**
 * JSON Schema checking with ajv: meta-schema checks for declared schemas, and validators compiled
 * once per distinct schema (keyed by its canonical text, so a reload that keeps a schema keeps its
 * validator). Compiling is the expensive part (~0.2 ms a schema), so a registry compiles a tool's
 * validator on its first call, not at load: at load only schemas with references are compiled,
 * because an unresolvable `$ref` is found by compiling alone.
 *
 * No schema can block the event loop: `pattern` and `patternProperties` run on a linear-time engine
 * (`linear-pattern.ts`), the one ajv-formats format with a super-linear regular expression (`url`)
 * is replaced by a linear check, and so is ajv's quadratic `uniqueItems`.
 */
import { createRequire } from "node:module";
import type { ErrorObject, ValidateFunction } from "ajv";
import { closestMatch } from "../json/describe-value.js";
import type { JsonSchema } from "../plugin-contract.js";
import { isSimpleValidSchema } from "./is-simple-valid-schema.js";
import { linearRegExp } from "./linear-pattern.js";
import { uniqueItemsKeyword } from "./unique-items.js";
import { isUrl } from "./url-format.js";

// ajv ships CommonJS with `exports.default`; createRequire sidesteps ESM default-export interop.
const require = createRequire(import.meta.url);
const Ajv2020 = require("ajv/dist/2020").default as typeof import("ajv/dist/2020.js").default;
const AjvDraft7 = require("ajv").default as typeof import("ajv").default;
const AjvDraft2019 = require("ajv/dist/2019").default as typeof import("ajv/dist/2019.js").default;
const addFormats = require("ajv-formats").default as typeof import("ajv-formats").default;

export interface SchemaProblem {
  /** JSON-pointer-like path inside the validated data, as segments. */
  path: Array<string | number>;
  message: string;
}

export type CompiledValidator = (data: unknown) => SchemaProblem[];

const DRAFT_07 = /json-schema\.org\/(draft-07|draft-06|draft-04)\/schema/;
const DRAFT_2019 = /json-schema\.org\/draft\/2019-09\/schema/;

function createAjvInstances() {
  // `verbose` puts the failing schema on each error: "did you mean" needs the allowed property names.
  const options = { strict: false, allErrors: true, validateFormats: true, verbose: true, code: { regExp: linearRegExp } } as const;
  const instances = {
    draft2020: new Ajv2020(options),
    draft2019: new AjvDraft2019(options),
    draft7: new AjvDraft7(options),
  };
  for (const ajv of Object.values(instances)) {
    addFormats(ajv as never);
    ajv.addFormat("url", isUrl);
    ajv.removeKeyword("uniqueItems");
    ajv.addKeyword(uniqueItemsKeyword);
  }
  return instances;
}

let shared: ReturnType<typeof createAjvInstances> | undefined;
const ajvInstances = () => (shared ??= createAjvInstances());

function ajvFor(schema: JsonSchema) {
  const dialect = typeof schema.$schema === "string" ? schema.$schema : "";
  const instances = ajvInstances();
  if (DRAFT_07.test(dialect)) return instances.draft7;
  if (DRAFT_2019.test(dialect)) return instances.draft2019;
  return instances.draft2020;
}

function toSegments(pointer: string): Array<string | number> {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}

/** Longer names are cut and get no hint: no property is named like that, and the edit distance costs length × length. */
const MAX_HINTED_NAME_LENGTH = 128;

/** "unknown property "x"", with the closest name the schema allows when one is near. */
function unknownPropertyMessage(error: ErrorObject): string {
  const unknown = (error.params as { additionalProperty: string }).additionalProperty;
  const properties = (error.parentSchema as { properties?: unknown } | undefined)?.properties;
  const allowed = properties !== null && typeof properties === "object" ? Object.keys(properties) : [];
  if (unknown.length > MAX_HINTED_NAME_LENGTH) return `unknown property "${unknown.slice(0, 40)}…" (${unknown.length} characters)`;
  const hint = closestMatch(unknown, allowed);
  return `unknown property "${unknown}"${hint === undefined ? "" : `; did you mean "${hint}"?`}`;
}

/** Turn ajv's errors into short, path-carrying problems ("must be number", "must have required property 'x'"). */
export function toSchemaProblems(errors: ErrorObject[] | null | undefined): SchemaProblem[] {
  if (!errors) return [];
  return errors.map((error) => {
    const path = toSegments(error.instancePath);
    let message = error.message ?? "is invalid";
    if (error.keyword === "required") {
      message = `missing required property "${(error.params as { missingProperty: string }).missingProperty}"`;
    } else if (error.keyword === "additionalProperties") {
      message = unknownPropertyMessage(error);
    } else if (error.keyword === "enum") {
      message = `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((value) => JSON.stringify(value)).join(", ")}`;
    }
    return { path, message };
  });
}

const REFERENCE_KEYS = new Set(["$ref", "$dynamicRef", "$recursiveRef"]);

/** Does the schema use a reference anywhere (the only thing a meta-schema check cannot vouch for)? */
function hasReferences(value: unknown, depth = 0): boolean {
  if (value === null || typeof value !== "object" || depth > 200) return false;
  if (Array.isArray(value)) return value.some((item) => hasReferences(item, depth + 1));
  for (const [key, item] of Object.entries(value)) if (REFERENCE_KEYS.has(key) || hasReferences(item, depth + 1)) return true;
  return false;
}

/** Results of `checkSchema` by schema object: a definition checked at load is not checked again by the registry. */
const checked = new WeakMap<object, SchemaProblem[]>();

/**
 * Check a schema against its meta-schema (and, when it has references, that they resolve);
 * returns the problems (empty when valid). Remembered per schema object.
 */
export function checkSchema(schema: JsonSchema): SchemaProblem[] {
  // Most schemas are settled by one walk (remembered on its own); ajv (~4 µs a schema) words the rest.
  if (isSimpleValidSchema(schema)) return [];
  const known = checked.get(schema);
  if (known) return known;
  const problems = findSchemaProblems(schema);
  checked.set(schema, problems);
  return problems;
}

/** `checkSchema` without its fast path: ajv's verdict and wording, always. */
export function findSchemaProblems(schema: JsonSchema): SchemaProblem[] {
  const ajv = ajvFor(schema);
  let valid: boolean | Promise<unknown>;
  try {
    valid = ajv.validateSchema(schema);
  } catch (error) {
    // ajv throws for a `$schema` it has no meta-schema for.
    const dialect = JSON.stringify(schema.$schema);
    return [{ path: ["$schema"], message: `unknown $schema ${dialect} (${(error as Error).message}); supported: draft 2020-12, 2019-09 and 07; or leave $schema out` }];
  }
  if (valid === true) {
    if (!hasReferences(schema)) return [];
    try {
      compileSchema(schema);
      return [];
    } catch (error) {
      return [{ path: [], message: (error as Error).message }];
    }
  }
  // Meta-schema failures come in bunches (enum, type, anyOf for one bad "type"): keep the first per path.
  const seen = new Set<string>();
  return toSchemaProblems(ajv.errors).filter((problem) => {
    const key = problem.path.join("/");
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const compiled = new Map<string, CompiledValidator>();

/** A validator for `schema`, compiled once per distinct schema text. Throws if the schema is invalid. */
export function compileSchema(schema: JsonSchema): CompiledValidator {
  const key = JSON.stringify(schema);
  const cached = compiled.get(key);
  if (cached) return cached;
  const validate: ValidateFunction = ajvFor(schema).compile(schema);
  const validator: CompiledValidator = (data) => (validate(data) ? [] : toSchemaProblems(validate.errors));
  compiled.set(key, validator);
  return validator;
}

/** `"/rows/2": must be number; "": missing required property "path"` */
export function formatSchemaProblems(problems: SchemaProblem[], limit = 5): string {
  const shown = problems.slice(0, limit).map((problem) => {
    const where = problem.path.length === 0 ? "arguments" : problem.path.map((segment) => (typeof segment === "number" ? `[${segment}]` : `.${segment}`)).join("").replace(/^\./, "");
    return `${where}: ${problem.message}`;
  });
  const more = problems.length > limit ? ` (+${problems.length - limit} more)` : "";
  return shown.join("; ") + more;
}
