/**
 * Finds the `pattern` and `patternProperties` regular expressions of a schema that the linear-time
 * engine cannot run (lookaround, backreferences). Validation leaves those unchecked; tools.json
 * refuses them, and the registry warns about them, naming the tool.
 */
import type { JsonSchema } from "../plugin-contract.js";
import { findLinearPatternProblem } from "./linear-pattern.js";
import { MAX_SCHEMA_DEPTH, SCHEMA_KEYWORDS, SCHEMA_MAP_KEYWORDS } from "./schema-keywords.js";
import type { SchemaProblem } from "./schema-validator.js";

function describe(source: string, reason: string): string {
  return `pattern ${JSON.stringify(source)} cannot be checked in linear time: ${reason}`;
}

function problemOf(source: string, path: Array<string | number>): SchemaProblem | undefined {
  let reason;
  try {
    reason = findLinearPatternProblem(source);
  } catch {
    return undefined; // not a regular expression at all: the meta-schema check reports it
  }
  return reason === undefined ? undefined : { path, message: describe(source, reason) };
}

/**
 * The patterns in `schema` that validation cannot check, with the path of each inside the schema.
 *
 * @example
 * findUncheckedPatterns({ properties: { password: { type: "string", pattern: "^(?=.*\\d)" } } });
 * // [{ path: ["properties", "password", "pattern"], message: 'pattern "^(?=.*\\d)" cannot be checked in linear time: ...' }]
 */
export function findUncheckedPatterns(schema: JsonSchema): SchemaProblem[] {
  const known = found.get(schema);
  if (known) return known;
  const problems: SchemaProblem[] = [];
  // One path stack, copied only for a problem: this runs on every schema of a registry at load.
  const path: Array<string | number> = [];
  const report = (source: string) => {
    const problem = problemOf(source, [...path]);
    if (problem) problems.push(problem);
  };
  const walk = (node: unknown) => {
    if (node === null || typeof node !== "object" || Array.isArray(node) || path.length > MAX_SCHEMA_DEPTH) return;
    for (const keyword in node) {
      if (!Object.hasOwn(node, keyword)) continue;
      const value = (node as Record<string, unknown>)[keyword];
      path.push(keyword);
      if (keyword === "pattern" && typeof value === "string") {
        report(value);
      } else if (SCHEMA_KEYWORDS.has(keyword)) {
        if (Array.isArray(value)) {
          for (let index = 0; index < value.length; index++) {
            path.push(index);
            walk(value[index]);
            path.pop();
          }
        } else {
          walk(value);
        }
      } else if (SCHEMA_MAP_KEYWORDS.has(keyword) && value !== null && typeof value === "object") {
        for (const name in value) {
          if (!Object.hasOwn(value, name)) continue;
          path.push(name);
          if (keyword === "patternProperties") report(name);
          walk((value as Record<string, unknown>)[name]);
          path.pop();
        }
      }
      path.pop();
    }
  };
  walk(schema);
  found.set(schema, problems);
  return problems;
}

/** By schema object: a schema checked when tools.json loaded is not walked again by the registry. */
const found = new WeakMap<object, SchemaProblem[]>();
