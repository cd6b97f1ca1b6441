/** Turns zod's issues into config issues that say what was expected, what came, and where. */
import { z } from "zod";
import type { ConfigIssue } from "../errors/config-error.js";
import { closestMatch, describeValue, valueAt } from "../json/describe-value.js";
import { formatJsonPath, type JsonDocument, type JsonPath } from "../json/parse-json-document.js";

type Issue = z.core.$ZodIssue;

/** One zod issue in words, at the path it concerns; `atKey` when the key, not its value, is at fault. */
export interface DescribedIssue {
  path: JsonPath;
  message: string;
  atKey: boolean;
}

/** The keys the schema allows for the object at `path`, found by walking the schema. */
function allowedKeysAt(schema: z.ZodType, path: JsonPath): string[] {
  let current: unknown = schema;
  const unwrap = () => {
    for (;;) {
      if (current instanceof z.ZodOptional || current instanceof z.ZodDefault || current instanceof z.ZodNullable) current = current.unwrap();
      // An object or a literal (the `webSearch: {...} | false` option): the keys are the object's.
      else if (current instanceof z.ZodUnion) current = (current.options as unknown[]).find((option) => option instanceof z.ZodObject) ?? undefined;
      else return;
    }
  };
  for (const segment of path) {
    unwrap();
    if (typeof segment === "number") current = (current as { element?: unknown }).element;
    // Any key of a record (mcp.json's servers by name) leads to its value schema.
    else if (current instanceof z.ZodRecord) current = current.valueType;
    else current = (current as { shape?: Record<string, unknown> }).shape?.[segment];
  }
  unwrap();
  return Object.keys((current as { shape?: Record<string, unknown> } | undefined)?.shape ?? {});
}

/** zod's type names in the words a config author uses: a record is an object to them. */
function typeInWords(expected: string): string {
  if (expected === "int") return "an integer";
  if (expected === "record") return "an object";
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/** `"5000"` where a number belongs is a common slip: say how to fix it. */
function quotedHint(expected: string, actual: unknown): string {
  if (typeof actual !== "string") return "";
  const isNumber = (expected === "number" || expected === "int") && actual.trim() !== "" && Number.isFinite(Number(actual));
  const isBoolean = expected === "boolean" && (actual === "true" || actual === "false");
  return isNumber || isBoolean ? " (remove the quotes)" : "";
}

/** What one branch of a union wanted, in words; undefined when it failed deeper than its own value. */
function branchExpectation(branch: Issue[]): string | undefined {
  const own = branch.find((issue) => issue.path.length === 0);
  if (own === undefined) return undefined;
  if (own.code === "invalid_type") return typeInWords(own.expected);
  if (own.code === "invalid_value") return own.values.map((value) => JSON.stringify(value)).join(" or ");
  if (own.code === "too_small" && own.origin === "string") return "a non-empty string";
  return undefined;
}

function bounds(issue: Extract<Issue, { code: "too_small" | "too_big" }>): string {
  const small = issue.code === "too_small";
  const limit = String(small ? issue.minimum : issue.maximum);
  if (issue.origin === "string") return small && limit === "1" ? "a non-empty string" : `${small ? "at least" : "at most"} ${limit} characters`;
  if (issue.origin === "array" || issue.origin === "set") return `${small ? "at least" : "at most"} ${limit} items`;
  if (issue.inclusive) return `a number ${small ? "of at least" : "of at most"} ${limit}`;
  return `a number ${small ? "greater" : "less"} than ${limit}`;
}

/**
 * One bound per place: `.int().max(2147483647)` reports both the safe-integer and the explicit
 * maximum for 1e20; only the tighter one says what to write.
 */
function tightestBounds(issues: Issue[]): Issue[] {
  type Bound = Extract<Issue, { code: "too_small" | "too_big" }>;
  const isNumericBound = (issue: Issue): issue is Bound => (issue.code === "too_big" || issue.code === "too_small") && (issue.origin === "number" || issue.origin === "int");
  const limit = (issue: Bound) => Number(issue.code === "too_big" ? issue.maximum : issue.minimum);
  const keyOf = (issue: Bound) => `${issue.code}:${JSON.stringify(issue.path)}`;
  const tightest = new Map<string, Bound>();
  for (const issue of issues) {
    if (!isNumericBound(issue)) continue;
    const kept = tightest.get(keyOf(issue));
    if (kept === undefined || (issue.code === "too_big" ? limit(issue) < limit(kept) : limit(issue) > limit(kept))) tightest.set(keyOf(issue), issue);
  }
  return issues.filter((issue) => !isNumericBound(issue) || tightest.get(keyOf(issue)) === issue);
}

/** Put zod's issues for `value` (checked against `schema`) into words, each at its path. */
export function describeZodIssues(allIssues: Issue[], schema: z.ZodType, value: unknown): DescribedIssue[] {
  const issues = tightestBounds(allIssues);
  const result: DescribedIssue[] = [];
  const add = (path: JsonPath, message: string, atKey = false) => result.push({ path, message, atKey });
  for (const issue of issues) {
    const path = issue.path as JsonPath;
    const actual = valueAt(value, path);
    const key = path[path.length - 1];
    // zod reports an absent key as a wrong value at that key; people think of it as a missing key.
    const missing = actual === undefined && path.length > 0 && valueAt(value, path.slice(0, -1)) !== undefined;
    switch (issue.code) {
      case "unrecognized_keys": {
        const allowed = allowedKeysAt(schema, path);
        for (const unknownKey of issue.keys) {
          const hint = closestMatch(unknownKey, allowed);
          add([...path, unknownKey], `Unknown key "${unknownKey}"${hint ? ` (did you mean "${hint}"?)` : ""}; expected one of: ${allowed.join(", ")}`, true);
        }
        break;
      }
      case "invalid_type":
        if (missing) add(path.slice(0, -1), `Missing required key "${String(key)}" (expected ${typeInWords(issue.expected)})`);
        else add(path, `Expected ${typeInWords(issue.expected)}, got ${describeValue(actual)}${quotedHint(issue.expected, actual)}`);
        break;
      case "invalid_value": {
        const expected = `one of ${issue.values.map((allowed) => JSON.stringify(allowed)).join(", ")}`;
        if (missing) add(path.slice(0, -1), `Missing required key "${String(key)}" (expected ${expected})`);
        else add(path, `Expected ${expected}, got ${describeValue(actual)}`);
        break;
      }
      case "too_small":
      case "too_big":
        add(path, `Expected ${bounds(issue)}, got ${Array.isArray(actual) ? `${actual.length} items` : describeValue(actual)}`);
        break;
      case "invalid_format":
        add(path, `${issue.message}, got ${describeValue(actual)}`);
        break;
      case "invalid_union": {
        const expectations = issue.errors.map(branchExpectation);
        if (expectations.every((expected) => expected !== undefined)) {
          add(path, `Expected ${[...new Set(expectations)].join(" or ")}, got ${describeValue(actual)}`);
        } else {
          add(path, `${issue.message}, got ${describeValue(actual)}`);
        }
        break;
      }
      default:
        add(path, issue.message);
    }
  }
  return result;
}

/** Map zod issues to config issues located in the document. */
export function toConfigIssues(issues: Issue[], schema: z.ZodType, document: JsonDocument, file: string): ConfigIssue[] {
  return describeZodIssues(issues, schema, document.value).map(({ path, message, atKey }) => ({
    file,
    path: formatJsonPath(path),
    ...document.locate(path, { key: atKey }),
    message,
  }));
}
