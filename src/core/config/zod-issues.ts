/** Turns zod's issues into config issues that say what was expected, what came, and where. */
import { z } from "zod";
import type { ConfigIssue } from "../errors/config-error.js";
import { closestMatch, describeValue } from "./describe-value.js";
import { formatJsonPath, type JsonDocument, type JsonPath } from "./parse-json-document.js";

type Issue = z.core.$ZodIssue;

function valueAt(root: unknown, path: JsonPath): unknown {
  let current = root;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

/** The keys the schema allows for the object at `path`, found by walking the schema. */
function allowedKeysAt(schema: z.ZodType, path: JsonPath): string[] {
  let current: unknown = schema;
  const unwrap = () => {
    while (current instanceof z.ZodOptional || current instanceof z.ZodDefault || current instanceof z.ZodNullable) {
      current = current.unwrap();
    }
  };
  for (const segment of path) {
    unwrap();
    if (typeof segment === "number") current = (current as { element?: unknown }).element;
    else current = (current as { shape?: Record<string, unknown> }).shape?.[segment];
  }
  unwrap();
  return Object.keys((current as { shape?: Record<string, unknown> } | undefined)?.shape ?? {});
}

function article(expected: string): string {
  if (expected === "int") return "an integer";
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/** Map zod issues to config issues located in the document. */
export function toConfigIssues(issues: Issue[], schema: z.ZodType, document: JsonDocument, file: string): ConfigIssue[] {
  const result: ConfigIssue[] = [];
  const add = (path: JsonPath, message: string, atKey = false) => {
    result.push({ file, path: formatJsonPath(path), ...document.locate(path, { key: atKey }), message });
  };
  for (const issue of issues) {
    const path = issue.path as JsonPath;
    const actual = valueAt(document.value, path);
    switch (issue.code) {
      case "unrecognized_keys": {
        const allowed = allowedKeysAt(schema, path);
        for (const key of issue.keys) {
          const hint = closestMatch(key, allowed);
          add([...path, key], `Unknown key "${key}"${hint ? ` (did you mean "${hint}"?)` : ""}; expected one of: ${allowed.join(", ")}`, true);
        }
        break;
      }
      case "invalid_type":
        if (actual === undefined) {
          const key = path[path.length - 1];
          add(path.slice(0, -1), `Missing required key "${String(key)}" (expected ${article(issue.expected)})`);
        } else {
          add(path, `Expected ${article(issue.expected)}, got ${describeValue(actual)}`);
        }
        break;
      case "invalid_value":
        add(path, `Expected one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}, got ${describeValue(actual)}`);
        break;
      case "too_small": {
        const bound = `${issue.inclusive ? "at least" : "more than"} ${String(issue.minimum)}`;
        const what = issue.origin === "string" ? `a non-empty string` : issue.origin === "number" ? `a number ${bound}` : `${bound} items`;
        add(path, `Expected ${issue.origin === "string" && Number(issue.minimum) > 1 ? `at least ${String(issue.minimum)} characters` : what}, got ${describeValue(actual)}`);
        break;
      }
      case "invalid_format":
        add(path, `${issue.message}, got ${describeValue(actual)}`);
        break;
      default:
        add(path, issue.message);
    }
  }
  return result;
}
