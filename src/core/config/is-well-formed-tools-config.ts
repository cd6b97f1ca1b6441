/**
 * A fast vouch for tools.json's shape. zod checks 10,000 entries in ~45 ms on a cold start (most
 * of it before the JIT has warmed up); these hand-written rules settle a well-formed file in a
 * few. They only ever answer "well formed" or "ask zod": any entry they do not recognize at once
 * sends the whole file through the zod schema, which decides and words every problem, so errors
 * are exactly zod's. Each rule therefore accepts a subset of what its zod counterpart accepts
 * (safe integers where zod says `.int()`, no `__proto__` key where zod skips one); a test holds
 * them to that, key by key, and fails when the schema gains a key these rules do not know.
 */
import { TOOL_NAME_PATTERN } from "../tool-names.js";
import { MAX_TIMEOUT_MS, MIN_PYTHON_MEMORY_LIMIT_MB, PYTHON_FUNCTION_PATTERN, toolsConfigSchema } from "./tools-config-schema.js";

type Check = (value: unknown) => boolean;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && !Object.hasOwn(value, "__proto__");
}

const isString: Check = (value) => typeof value === "string";
const isNonEmptyString: Check = (value) => typeof value === "string" && value.length > 0;
const isBoolean: Check = (value) => typeof value === "boolean";
const integerFrom = (minimum: number, maximum = Number.MAX_SAFE_INTEGER): Check => (value) => Number.isSafeInteger(value) && (value as number) >= minimum && (value as number) <= maximum;

/** An object with the `required` keys, whose keys each have a check, and whose values pass them. */
const objectOf = (checks: ReadonlyMap<string, Check>, required: readonly string[] = []): Check => (value) => {
  if (!isPlainObject(value) || !required.every((key) => Object.hasOwn(value, key))) return false;
  // `for…in` allocates no key list; a key it adds (an enumerable Object.prototype property) can only refuse.
  for (const key in value) {
    const check = checks.get(key);
    if (check === undefined || !check(value[key])) return false;
  }
  return true;
};

const annotationChecks = new Map<string, Check>([
  ["title", isString],
  ["readOnlyHint", isBoolean],
  ["destructiveHint", isBoolean],
  ["idempotentHint", isBoolean],
  ["openWorldHint", isBoolean],
]);

/** Every index, holes included (`every` skips holes; zod would refuse one). */
const everyItem = (items: unknown[], check: Check): boolean => {
  for (let index = 0; index < items.length; index++) if (!check(items[index])) return false;
  return true;
};

const isStringRecord: Check = (value) => isPlainObject(value) && Object.values(value).every(isString);

/** The keys `toolEntrySchema` requires (the others are optional). */
export const TOOL_ENTRY_REQUIRED_KEYS = ["name"] as const;

/** One check per key of `toolEntrySchema`, each no looser than zod's. */
export const TOOL_ENTRY_CHECKS: ReadonlyMap<string, Check> = new Map<string, Check>([
  ["name", (value) => typeof value === "string" && TOOL_NAME_PATTERN.test(value)],
  ["title", isString],
  ["description", isNonEmptyString],
  ["runtime", (value) => value === "python" || value === "shell" || value === "node"],
  ["script", isNonEmptyString],
  ["function", (value) => typeof value === "string" && PYTHON_FUNCTION_PATTERN.test(value)],
  ["args", (value) => Array.isArray(value) && everyItem(value, isString)],
  ["interpreter", isNonEmptyString],
  ["inputSchema", isPlainObject],
  ["outputSchema", isPlainObject],
  ["annotations", objectOf(annotationChecks)],
  ["timeoutMs", integerFrom(1, MAX_TIMEOUT_MS)],
  ["parallel", isBoolean],
  ["env", isStringRecord],
  ["cwd", isNonEmptyString],
  ["maxOutputBytes", integerFrom(1)],
  ["memoryLimitMb", integerFrom(MIN_PYTHON_MEMORY_LIMIT_MB)],
  ["results", objectOf(new Map([["maxChars", integerFrom(1)]]))],
  ["python", objectOf(new Map<string, Check>([["requirements", (value) => isNonEmptyString(value) || (Array.isArray(value) && everyItem(value, isString))]]), ["requirements"])],
]);

/** True when `toolEntrySchema` certainly accepts `entry`; false: ask zod. */
export const isWellFormedToolEntry: Check = objectOf(TOOL_ENTRY_CHECKS, TOOL_ENTRY_REQUIRED_KEYS);

/**
 * True when `toolsConfigSchema` certainly accepts `value`: every entry of `tools` passes the fast
 * rules and the rest of the file (small: defaults and the plugins' sections) passes `schema` (the file's
 * schema with the plugins' keys, `toolsConfigSchemaWith`) itself.
 *
 * @example
 * isWellFormedToolsConfig({ tools: [{ name: "a", description: "A", runtime: "shell", script: "a.sh", inputSchema: {} }] }); // true
 * isWellFormedToolsConfig({ tools: [{ name: "a", timeoutMs: "5000" }] }); // false: zod words the problem
 */
export function isWellFormedToolsConfig(value: unknown, schema: typeof toolsConfigSchema = toolsConfigSchema): boolean {
  if (!isPlainObject(value) || !Array.isArray(value.tools)) return false;
  if (!everyItem(value.tools, isWellFormedToolEntry)) return false;
  return schema.safeParse({ ...value, tools: [] }).success;
}
