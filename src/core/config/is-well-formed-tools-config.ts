/**
 * A fast vouch for tools.json's shape. zod checks 10,000 entries in ~45 ms on a cold start (most
 * of it before the JIT has warmed up), and loading zod and building the schemas costs ~100 ms more;
 * these hand-written rules settle a well-formed file in a few, without zod. They only ever answer
 * "well formed" or "ask zod": anything they do not recognize at once sends the whole file through
 * the zod schema, which decides and words every problem, so errors are exactly zod's. Each rule
 * therefore accepts a subset of what its zod counterpart accepts (well-formed-checks.ts); a test
 * holds them to that, key by key, and fails when the schema gains a key these rules do not know.
 */
import { TOOL_NAME_PATTERN } from "../tool-names.js";
import { isKeySection, type OwnedSection } from "./config-sections.js";
import { sectionAccepts } from "./lazy-section-schema.js";
import { MAX_TIMEOUT_MS } from "./timeout-limits.js";
import { MIN_PYTHON_MEMORY_LIMIT_MB, PYTHON_FUNCTION_PATTERN } from "./tools-config-constants.js";
import { arrayOf, either, everyItem, integerFrom, isBoolean, isNonEmptyString, isPlainObject, isString, isStringRecord, objectOf, oneOf, type Check } from "./well-formed-checks.js";

const annotationChecks = new Map<string, Check>([
  ["title", isString],
  ["readOnlyHint", isBoolean],
  ["destructiveHint", isBoolean],
  ["idempotentHint", isBoolean],
  ["openWorldHint", isBoolean],
]);

const isRequirements: Check = either(isNonEmptyString, arrayOf(isString));
const isResultsSettings: Check = objectOf(new Map([["maxChars", integerFrom(1)]]));

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
  ["results", isResultsSettings],
  ["python", objectOf(new Map<string, Check>([["requirements", isRequirements]]), ["requirements"])],
]);

/** True when `toolEntrySchema` certainly accepts `entry`; false: ask zod. */
export const isWellFormedToolEntry: Check = objectOf(TOOL_ENTRY_CHECKS, TOOL_ENTRY_REQUIRED_KEYS);

/** One check per key of tools.json's `defaults`, each no looser than zod's. */
export const DEFAULTS_CHECKS: ReadonlyMap<string, Check> = new Map<string, Check>([
  ["timeoutMs", integerFrom(1, MAX_TIMEOUT_MS)],
  ["maxOutputBytes", integerFrom(1)],
  ["parallel", isBoolean],
  ["python", isNonEmptyString],
  ["env", isStringRecord],
  ["memoryLimitMb", integerFrom(MIN_PYTHON_MEMORY_LIMIT_MB)],
  ["results", isResultsSettings],
]);

/** One check per key of tools.json's `python`, each no looser than zod's. */
export const PROJECT_PYTHON_CHECKS: ReadonlyMap<string, Check> = new Map<string, Check>([
  ["requirements", isRequirements],
  ["installer", oneOf(["uv", "pip"])],
  ["maxWorkers", integerFrom(1, 64)],
  ["maxAsyncCallsPerWorker", integerFrom(1, 1000)],
]);

/** tools.json's own keys but `tools`, each no looser than zod's. */
const CORE_KEY_CHECKS: ReadonlyMap<string, Check> = new Map<string, Check>([
  ["$schema", isString],
  ["defaults", objectOf(DEFAULTS_CHECKS)],
  ["python", objectOf(PROJECT_PYTHON_CHECKS)],
]);

/**
 * True when tools.json's schema with the keys `sections` own (`toolsConfigSchemaWith`) certainly
 * accepts `value`: every entry of `tools` and every key of tools.json's own pass the fast rules, and
 * each plugin's key passes its section's check (a built-in section's fast check, a host plugin's zod
 * schema).
 *
 * @example
 * isWellFormedToolsConfig({ tools: [{ name: "a", description: "A", runtime: "shell", script: "a.sh", inputSchema: {} }] }); // true
 * isWellFormedToolsConfig({ tools: [{ name: "a", timeoutMs: "5000" }] }); // false: zod words the problem
 */
export function isWellFormedToolsConfig(value: unknown, sections: readonly OwnedSection[] = []): boolean {
  if (!isPlainObject(value) || !Array.isArray(value.tools)) return false;
  if (!everyItem(value.tools, isWellFormedToolEntry)) return false;
  for (const key in value) {
    if (key === "tools") continue;
    const check = CORE_KEY_CHECKS.get(key);
    if (check !== undefined) {
      if (!check(value[key])) return false;
      continue;
    }
    const owned = sections.find(({ section }) => isKeySection(section) && section.key === key);
    if (owned === undefined || !sectionAccepts(owned.section, value[key])) return false;
  }
  return true;
}
