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

/** Registries repeat patterns across tools (and reloads check them again): each is compiled once. */
const problemsBySource = new Map<string, string | undefined>();
/** Sources are config text, so the map is bounded only for safety against a generated flood. */
const MAX_REMEMBERED = 10_000;

function compileProblem(pattern: string): string | undefined {
  if (problemsBySource.has(pattern)) return problemsBySource.get(pattern);
  let problem: string | undefined;
  try {
    // ajv compiles patterns with the "u" flag; check them the same way.
    new RegExp(pattern, "u");
  } catch (error) {
    problem = `Invalid JSON Schema: ${JSON.stringify(pattern)} is not a valid regular expression (${(error as Error).message.replace(/^Invalid regular expression: /, "")})`;
  }
  if (problemsBySource.size >= MAX_REMEMBERED) problemsBySource.clear();
  problemsBySource.set(pattern, problem);
  return problem;
}

/**
 * @example
 * checkSchemaPatterns({ type: "string", pattern: "(" });
 * // [{ path: ["pattern"], message: 'Invalid JSON Schema: "(" is not a valid regular expression (...)' }]
 */
export function checkSchemaPatterns(schema: unknown): PatternProblem[] {
  const problems: PatternProblem[] = [];
  // One path stack, copied only for a problem: this runs on every schema of a registry at load.
  const path: Array<string | number> = [];
  const report = (problem: string | undefined) => {
    if (problem) problems.push({ path: [...path], message: problem });
  };
  const visitMembers = (node: object, depth: number, isMap: boolean) => {
    for (const [key, value] of Object.entries(node)) {
      path.push(key);
      if (isMap) visit(value, depth + 1);
      else if (key === "pattern" && typeof value === "string") report(compileProblem(value));
      else if (key === "patternProperties" && value !== null && typeof value === "object" && !Array.isArray(value)) {
        for (const [pattern, subschema] of Object.entries(value)) {
          path.push(pattern);
          report(compileProblem(pattern));
          visit(subschema, depth + 1);
          path.pop();
        }
      } else if (SCHEMA_MAPS.has(key) && value !== null && typeof value === "object" && !Array.isArray(value)) visitMembers(value, depth, true);
      else if (!DATA_KEYWORDS.has(key)) visit(value, depth + 1);
      path.pop();
    }
  };
  const visit = (node: unknown, depth: number): void => {
    if (depth > MAX_DEPTH || node === null || typeof node !== "object") return;
    if (!Array.isArray(node)) return visitMembers(node, depth, false);
    for (let index = 0; index < node.length; index++) {
      path.push(index);
      visit(node[index], depth + 1);
      path.pop();
    }
  };
  visit(schema, 0);
  return problems;
}
