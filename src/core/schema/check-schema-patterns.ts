/**
 * Finds `pattern` and `patternProperties` regular expressions in a JSON Schema that do not compile.
 * The meta-schema only says they are strings (ajv does not check its `regex` format there), so an
 * invalid one would load and then fail every call when the validator is compiled.
 */
import type { JsonPath } from "../json/parse-json-document.js";

/** Keywords whose values are data, not subschemas: a "pattern" key inside them is an ordinary key. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);
/** Keywords whose value is an object of subschemas by name (their keys are names, not keywords). */
const SCHEMA_MAPS = new Set(["properties", "$defs", "definitions", "dependentSchemas", "patternProperties"]);

/** Schemas nest no deeper than the config parser allows; this bound only guards direct callers. */
const MAX_DEPTH = 512;

export interface PatternProblem {
  path: JsonPath;
  message: string;
}

function compileProblem(pattern: string): string | undefined {
  try {
    // ajv compiles patterns with the "u" flag; check them the same way.
    new RegExp(pattern, "u");
    return undefined;
  } catch (error) {
    return `Invalid JSON Schema: ${JSON.stringify(pattern)} is not a valid regular expression (${(error as Error).message.replace(/^Invalid regular expression: /, "")})`;
  }
}

/**
 * @example
 * checkSchemaPatterns({ type: "string", pattern: "(" });
 * // [{ path: ["pattern"], message: 'Invalid JSON Schema: "(" is not a valid regular expression (...)' }]
 */
export function checkSchemaPatterns(schema: unknown): PatternProblem[] {
  const problems: PatternProblem[] = [];
  const visit = (node: unknown, at: JsonPath, depth: number): void => {
    if (depth > MAX_DEPTH || node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      node.forEach((item, index) => visit(item, [...at, index], depth + 1));
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === "pattern" && typeof value === "string") {
        const problem = compileProblem(value);
        if (problem) problems.push({ path: [...at, key], message: problem });
      } else if (key === "patternProperties" && value !== null && typeof value === "object" && !Array.isArray(value)) {
        for (const [pattern, subschema] of Object.entries(value)) {
          const problem = compileProblem(pattern);
          if (problem) problems.push({ path: [...at, key, pattern], message: problem });
          visit(subschema, [...at, key, pattern], depth + 1);
        }
      } else if (SCHEMA_MAPS.has(key) && value !== null && typeof value === "object" && !Array.isArray(value)) {
        for (const [name, subschema] of Object.entries(value)) visit(subschema, [...at, key, name], depth + 1);
      } else if (!DATA_KEYWORDS.has(key)) {
        visit(value, [...at, key], depth + 1);
      }
    }
  };
  visit(schema, [], 0);
  return problems;
}
