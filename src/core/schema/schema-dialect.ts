/**
 * The JSON Schema dialect a schema is written in: the one its `$schema` declares, else the one its
 * keywords evidently belong to. Servers and plugins send schemas from every era (older
 * zod-to-json-schema emits draft-04's boolean `exclusiveMinimum`, Java generators draft-04's `id`,
 * Python ones tuple `items`), and each is only right when read in its own dialect.
 */
import { someSubschema, type SchemaNode } from "./schema-keywords.js";

export type SchemaDialect = "draft-04" | "draft-06" | "draft-07" | "2019-09" | "2020-12";

/** Each dialect's meta-schema URI as ajv registers it. */
export const DIALECT_URIS: Readonly<Record<SchemaDialect, string>> = {
  "draft-04": "http://json-schema.org/draft-04/schema#",
  "draft-06": "http://json-schema.org/draft-06/schema#",
  "draft-07": "http://json-schema.org/draft-07/schema#",
  "2019-09": "https://json-schema.org/draft/2019-09/schema",
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
};

/** The spellings in use: http or https, with or without the empty fragment. */
const DECLARED = /^https?:\/\/json-schema\.org\/(?:(draft-0[467])\/schema|draft\/(2019-09|2020-12)\/schema)#?$/;

/** Keywords that exist from 2019-09 on; the 2020-12-only ones are told apart below. */
const SINCE_2019 = ["$defs", "$anchor", "dependentRequired", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems", "minContains", "maxContains", "$vocabulary"];
const ONLY_2020 = ["prefixItems", "$dynamicRef", "$dynamicAnchor"];
const ONLY_2019 = ["$recursiveRef", "$recursiveAnchor"];

/** What a walk saw, in the order of the evidence's weight. */
interface Evidence {
  booleanBound: boolean;
  only2019: boolean;
  only2020: boolean;
  since2019: boolean;
  legacyId: boolean;
  tupleItems: boolean;
}

const hasAny = (node: SchemaNode, keywords: string[]) => keywords.some((keyword) => Object.hasOwn(node, keyword));

function gatherEvidence(schema: SchemaNode): Evidence {
  const seen: Evidence = { booleanBound: false, only2019: false, only2020: false, since2019: false, legacyId: false, tupleItems: false };
  someSubschema(schema, (node) => {
    if (typeof node.exclusiveMinimum === "boolean" || typeof node.exclusiveMaximum === "boolean") seen.booleanBound = true;
    if (hasAny(node, ONLY_2019)) seen.only2019 = true;
    if (hasAny(node, ONLY_2020)) seen.only2020 = true;
    if (hasAny(node, SINCE_2019)) seen.since2019 = true;
    if (typeof node.id === "string" && !Object.hasOwn(node, "$id")) seen.legacyId = true;
    if (Array.isArray(node.items)) seen.tupleItems = true;
    return false;
  });
  return seen;
}

/** Booleans for the exclusive bounds exist only in draft-04, so they outweigh everything else. */
function evidentDialect(schema: SchemaNode): SchemaDialect {
  const seen = gatherEvidence(schema);
  if (seen.booleanBound) return "draft-04";
  if (seen.only2019 || (seen.since2019 && seen.tupleItems && !seen.only2020)) return "2019-09";
  if (seen.only2020 || seen.since2019) return "2020-12";
  if (seen.legacyId) return "draft-04";
  if (seen.tupleItems) return "draft-07";
  return "2020-12";
}

const dialects = new WeakMap<object, SchemaDialect | undefined>();

/**
 * The dialect of `schema`, or undefined when its `$schema` names one that is not supported.
 * Remembered per schema object: schemas are not mutated once loaded.
 *
 * @example
 * schemaDialect({ type: "number", minimum: 0, exclusiveMinimum: true }); // "draft-04"
 * schemaDialect({ $schema: "http://json-schema.org/draft-07/schema#", type: "object" }); // "draft-07"
 * schemaDialect({ type: "object" }); // "2020-12"
 */
export function schemaDialect(schema: SchemaNode): SchemaDialect | undefined {
  if (dialects.has(schema)) return dialects.get(schema);
  let dialect: SchemaDialect | undefined;
  if (schema.$schema === undefined) dialect = evidentDialect(schema);
  else {
    const match = typeof schema.$schema === "string" ? DECLARED.exec(schema.$schema) : null;
    dialect = match ? ((match[1] ?? match[2]) as SchemaDialect) : undefined;
  }
  dialects.set(schema, dialect);
  return dialect;
}
