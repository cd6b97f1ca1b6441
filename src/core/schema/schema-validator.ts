/**
 * JSON Schema checking with ajv, in each schema's own dialect (`schema-dialect.ts`): meta-schema
 * checks for declared schemas, and validators compiled once per distinct schema (keyed by its canonical text, so a reload that keeps a schema keeps its
 * validator). Compiling is the expensive part (~0.2 ms a schema), so a registry compiles a tool's
 * validator on its first call, not at load: at load only schemas with references are compiled,
 * because an unresolvable `$ref` is found by compiling alone.
 *
 * No schema can block the event loop: `pattern` and `patternProperties` run on a linear-time engine
 * (`linear-pattern.ts`), the one ajv-formats format with a super-linear regular expression (`url`)
 * is replaced by a linear check, and so is ajv's quadratic `uniqueItems`.
 */
import type { ErrorObject, ValidateFunction } from "ajv";
import { closestMatch } from "../json/describe-value.js";
import type { JsonSchema } from "../plugin-contract.js";
import { ajvForDialect, withRegisteredDialect } from "./ajv-for-dialect.js";
import { isSimpleValidSchema } from "./is-simple-valid-schema.js";
import { schemaDialect } from "./schema-dialect.js";
import { someSubschema } from "./schema-keywords.js";

export interface SchemaProblem {
  /** JSON-pointer-like path inside the validated data, as segments. */
  path: Array<string | number>;
  message: string;
}

export type CompiledValidator = (data: unknown) => SchemaProblem[];

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

/** Where the `$ref` stands that ajv could not resolve ("can't resolve reference #/x from id #"); the root when unknown. */
function referencePath(schema: JsonSchema, error: unknown): Array<string | number> {
  const reference = /^can't resolve reference (.*) from id /.exec((error as Error).message)?.[1];
  let found: Array<string | number> = [];
  if (reference !== undefined) someSubschema(schema, (node, path) => node.$ref === reference && (found = [...path, "$ref"]).length > 0);
  return found;
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

/** The dialects a `$schema` may name, as an unknown one's message lists them. */
const SUPPORTED_DIALECTS = "draft-04, draft-06, draft-07, 2019-09 or 2020-12 (json-schema.org URIs)";

/** `checkSchema` without its fast path: ajv's verdict and wording, always, in the schema's own dialect. */
export function findSchemaProblems(schema: JsonSchema): SchemaProblem[] {
  const dialect = schemaDialect(schema);
  if (dialect === undefined) return [{ path: ["$schema"], message: `unknown $schema ${JSON.stringify(schema.$schema)}; name one of ${SUPPORTED_DIALECTS}, or leave $schema out` }];
  const ajv = ajvForDialect(dialect);
  let valid: boolean | Promise<unknown>;
  try {
    valid = ajv.validateSchema(withRegisteredDialect(schema, dialect));
  } catch (error) {
    return [{ path: [], message: (error as Error).message }];
  }
  if (valid === true) {
    if (!hasReferences(schema)) return [];
    try {
      compileSchema(schema);
      return [];
    } catch (error) {
      return [{ path: referencePath(schema, error), message: (error as Error).message }];
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
  const dialect = schemaDialect(schema);
  if (dialect === undefined) throw new Error(`unknown $schema ${JSON.stringify(schema.$schema)}`);
  const validate: ValidateFunction = ajvForDialect(dialect).compile(withRegisteredDialect(schema, dialect));
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
