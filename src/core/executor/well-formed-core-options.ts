/**
 * A fast vouch for the core's options of `createExecutor`, so well-formed options load no zod
 * (issue 30): true only where core-option-schemas.ts certainly accepts; false: ask zod, which
 * decides and words every problem.
 */
import { MAX_TIMEOUT_MS } from "../config/timeout-limits.js";
import { arrayOf, either, integerFrom, isBoolean, isFunction, isNonEmptyString, isPlainObject, objectOf, optional, type Check } from "../config/well-formed-checks.js";
import { isLogInterval } from "../log/execution-log.js";

/** Every check of `checks` made optional (an absent key or `undefined`, as zod's `.optional()`), but the `required` ones. */
export function optionalKeys(checks: ReadonlyMap<string, Check>, required: readonly string[] = []): ReadonlyMap<string, Check> {
  return new Map([...checks].map(([key, check]) => [key, required.includes(key) ? check : optional(check)]));
}

const isObjectLike = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);
/** A relative path, or `false` for none. */
export const isFileOption: Check = either(isNonEmptyString, (value) => value === false);
const isPluginLike: Check = (value) => isObjectLike(value) && isNonEmptyString(value.name) && isFunction(value.start);
const isLoggerLike: Check = (value) => isObjectLike(value) && ["debug", "info", "warn", "error"].every((level) => isFunction(value[level]));

/** One check per core option, each no looser than its zod schema (every option may be absent). */
export const CORE_OPTION_CHECKS: ReadonlyMap<string, Check> = optionalKeys(
  new Map<string, Check>([
    ["root", isNonEmptyString],
    ["watch", isBoolean],
    ["toolsConfig", isFileOption],
    ["logDir", isFileOption],
    [
      "log",
      objectOf(
        optionalKeys(
          new Map<string, Check>([
            ["interval", (value) => typeof value === "string" && isLogInterval(value)],
            ["maxFiles", integerFrom(1)],
            ["redactKeys", arrayOf(either(isNonEmptyString, (value) => value instanceof RegExp))],
            ["maxValueBytes", integerFrom(1)],
          ]),
        ),
      ),
    ],
    ["plugins", arrayOf(isPluginLike)],
    ["defaultTimeoutMs", integerFrom(1, MAX_TIMEOUT_MS)],
    ["maxConcurrency", integerFrom(1)],
    ["maxQueue", integerFrom(0)],
    ["reloadDebounceMs", integerFrom(0)],
    ["strict", isBoolean],
    [
      "results",
      objectOf(optionalKeys(new Map<string, Check>([["maxChars", integerFrom(1)], ["store", objectOf(optionalKeys(new Map([["maxBytes", integerFrom(1)], ["ttlMs", integerFrom(1, MAX_TIMEOUT_MS)]])))]]))),
    ],
    ["logger", isLoggerLike],
  ]),
);

/** `options` (undefined: none) as a plain object whose every key has a check it passes. */
export function isWellFormedOptions(options: unknown, checks: ReadonlyMap<string, Check>): boolean {
  return options === undefined || (isPlainObject(options) && objectOf(checks)(options));
}
