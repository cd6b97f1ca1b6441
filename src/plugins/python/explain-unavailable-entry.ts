/**
 * Why one tools.json function entry cannot be served, from what a worker said about its module. A
 * module that fails to import takes all its entries with it (its reason is theirs); a function the
 * module lacks, or whose schema cannot be derived, fails its own entries alone, named by their
 * place in tools.json so the message points at the line to fix.
 */
import type { PythonFunctionEntry } from "../../core/config/load-tools-config.js";
import type { ErrorCode } from "../../core/errors/error-codes.js";
import { closestMatch } from "../../core/json/describe-value.js";
import type { Description } from "./describe-functions.js";

export interface EntryProblem {
  /** What a call of the entry answers: `TOOL_NOT_FOUND` for a function the module lacks. */
  code: ErrorCode;
  /** Why, without the tool's name: `tools.json tools[3]: function "wrod_count" not found in tools/text_tools.py; did you mean "word_count"?` */
  reason: string;
  details: Record<string, unknown>;
}

/**
 * The problem of `entry` given its module's description; undefined when the entry can be served.
 *
 * @example
 * const problem = explainUnavailableEntry(entry, await describeModule(pool, [entry], root));
 */
export function explainUnavailableEntry(entry: PythonFunctionEntry, described: Description): EntryProblem | undefined {
  if (!described.ok) return { code: described.code ?? "TOOL_FAILED", reason: described.message, details: described.details };
  if (described.functions.has(entry.function)) return undefined;
  const where = entry.source ? `${entry.source.file} ${entry.source.path}: ` : "";
  const failure = described.failures.get(entry.function);
  if (failure && !failure.notFound) {
    const place = `tools/${entry.modulePath}${failure.line === null ? "" : `:${failure.line}`}`;
    return { code: "TOOL_FAILED", reason: `${where}${place}: ${failure.message}`, details: { module: entry.modulePath, function: entry.function, line: failure.line } };
  }
  const suggestion = closestMatch(entry.function, failure?.candidates ?? []);
  return {
    code: "TOOL_NOT_FOUND",
    reason: `${where}function "${entry.function}" not found in tools/${entry.modulePath}${suggestion ? `; did you mean "${suggestion}"?` : ""}`,
    details: { module: entry.modulePath, function: entry.function, ...(suggestion ? { suggestion } : {}) },
  };
}
