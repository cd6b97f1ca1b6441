/**
 * The checks every tool schema written by a person or a model gets, wherever it is written
 * (tools.json, a saved tool): valid against its meta-schema, patterns the linear-time engine can
 * check, and an `inputSchema` of type `"object"`. One message per place.
 */
import type { JsonSchema } from "../plugin-contract.js";
import { findUncheckedPatterns } from "./find-unchecked-patterns.js";
import { isSimpleValidSchema } from "./is-simple-valid-schema.js";
import { checkSchema } from "./schema-validator.js";
import { checkSchemaPatterns } from "./check-schema-patterns.js";
import { describeValue, valueAt } from "../json/describe-value.js";
import type { JsonPath } from "../json/parse-json-document.js";

export interface ToolSchemaProblem {
  /** Inside the schema. */
  path: JsonPath;
  message: string;
}

/**
 * A meta-schema problem in words: "must be string" from ajv says what was expected; add what came,
 * as the other messages do.
 *
 * @example
 * describeSchemaProblem({ minLength: -1 }, { path: ["minLength"], message: "must be >= 0" }); // "must be >= 0, got -1"
 */
export function describeSchemaProblem(schema: JsonSchema, problem: { path: JsonPath; message: string }): string {
  const actual = valueAt(schema, problem.path);
  const got = problem.message.startsWith("must ") && actual !== undefined ? `, got ${describeValue(actual)}` : "";
  return `${problem.message}${got}`;
}

/**
 * @example
 * checkToolSchema("inputSchema", { type: "array" }); // [{ path: ["type"], message: 'Expected "object" ...' }]
 */
export function checkToolSchema(key: "inputSchema" | "outputSchema", schema: JsonSchema): ToolSchemaProblem[] {
  const found: ToolSchemaProblem[] = [];
  const problems = checkSchema(schema);
  let typeChecked = false;
  for (const problem of problems) {
    found.push({ path: problem.path, message: `Invalid JSON Schema: ${describeSchemaProblem(schema, problem)}` });
    if (problem.path.length === 1 && problem.path[0] === "type") typeChecked = true;
  }
  // A schema the fast check vouched for has no pattern problem either: skip the two walks.
  if (problems.length === 0 && !isSimpleValidSchema(schema)) {
    const invalid = checkSchemaPatterns(schema);
    for (const problem of invalid) found.push({ path: problem.path, message: problem.message });
    // Validation cannot check these without risking the event loop; a hand-written file can be fixed.
    if (invalid.length === 0) for (const problem of findUncheckedPatterns(schema)) found.push({ path: problem.path, message: `${problem.message}; rewrite it without lookaround, backreferences or counts above 1000` });
  }
  if (key === "inputSchema" && schema.type !== "object" && !typeChecked) {
    found.push({ path: ["type"], message: `Expected "object" (arguments are always an object), got ${JSON.stringify(schema.type) ?? "nothing"}` });
  }
  return found;
}
