/** A fast vouch for a `codeExecution` object (tools.json's or the option's): true only where its zod schema accepts; false: ask zod. */
import { arrayOf, integerFrom, isBoolean, isNonEmptyString, objectOf, type Check } from "../../../core/config/well-formed-checks.js";
import { MAX_CODE_TIMEOUT_MS, MIN_CODE_MEMORY_LIMIT_MB } from "./code-execution-limits.js";

/** One check per key of `codeExecutionConfigSchema`, each no looser than zod's. */
export const CODE_EXECUTION_CHECKS: ReadonlyMap<string, Check> = new Map<string, Check>([
  ["enabled", isBoolean],
  ["timeoutMs", integerFrom(1, MAX_CODE_TIMEOUT_MS)],
  ["maxTimeoutMs", integerFrom(1, MAX_CODE_TIMEOUT_MS)],
  ["maxToolCalls", integerFrom(0)],
  ["allowedServers", arrayOf(isNonEmptyString)],
  ["excludeTools", arrayOf(isNonEmptyString)],
  ["listOnlyCodeExecution", isBoolean],
  ["prewarm", isBoolean],
  ["poolSize", integerFrom(1, 256)],
  ["maxQueue", integerFrom(0)],
  ["memoryLimitMb", integerFrom(MIN_CODE_MEMORY_LIMIT_MB)],
  ["maxResultBytes", integerFrom(1)],
  ["maxLogBytes", integerFrom(1)],
  ["maxCodeBytes", integerFrom(1)],
  ["allowSavingTools", isBoolean],
  ["maxSavedToolDepth", integerFrom(1, 100)],
  ["maxDescriptionBytes", integerFrom(1)],
]);

export const isWellFormedCodeExecution: Check = objectOf(CODE_EXECUTION_CHECKS);
