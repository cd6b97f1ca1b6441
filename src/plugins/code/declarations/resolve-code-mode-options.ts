/**
 * Checks the options of the declaration and description generators once, at the boundary: unknown
 * keys and wrong types throw `INVALID_OPTIONS` naming every problem; defaults are applied here only.
 */
import { describeValue } from "../../../core/json/describe-value.js";
import { ToolexecError } from "../../../core/errors/toolexec-error.js";
import type { CodeExecutionLimits } from "./code-execution-guide.js";

/** The `code_execution` description stays within this many UTF-8 bytes unless told otherwise. */
export const DEFAULT_MAX_DESCRIPTION_BYTES = 24 * 1024;

export interface GenerateToolDeclarationsOptions {
  /** Registry names to leave out of code mode. */
  exclude?: readonly string[];
}

export interface DescribeCodeExecutionOptions extends GenerateToolDeclarationsOptions {
  /** Default {@link DEFAULT_MAX_DESCRIPTION_BYTES}; past it the description lists tools instead of declaring them. */
  maxDescriptionBytes?: number;
  /** The configured limits, stated in the description; tools of servers outside `allowedServers` are left out. */
  limits?: CodeExecutionLimits;
  /** Under the search-first listing: name only the servers and send the model to `search_tools`, however few the tools. Default false. */
  searchFirst?: boolean;
}

export interface ResolvedDescribeCodeExecutionOptions {
  maxDescriptionBytes: number;
  exclude: readonly string[];
  limits: CodeExecutionLimits;
  searchFirst: boolean;
}

const DECLARATION_OPTIONS = ["exclude"];
const DESCRIPTION_OPTIONS = ["exclude", "maxDescriptionBytes", "limits", "searchFirst"];
const LIMIT_OPTIONS = ["timeoutMs", "maxToolCalls", "allowedServers"];

/**
 * The excluded names of {@link GenerateToolDeclarationsOptions}, checked.
 *
 * @example
 * resolveGenerateToolDeclarationsOptions({ exclude: ["drop_table"] }); // { exclude: ["drop_table"] }
 */
export function resolveGenerateToolDeclarationsOptions(options: GenerateToolDeclarationsOptions = {}): { exclude: readonly string[] } {
  const problems: string[] = [];
  checkObject(problems, options, "options", DECLARATION_OPTIONS);
  checkExclude(problems, options);
  throwIfAny(problems, "tool declaration");
  return { exclude: [...(options.exclude ?? [])] };
}

/**
 * The options of the description with defaults applied.
 *
 * @example
 * resolveDescribeCodeExecutionOptions({ maxDescriptionBytes: 8192 }); // { maxDescriptionBytes: 8192, exclude: [], limits: {}, searchFirst: false }
 */
export function resolveDescribeCodeExecutionOptions(options: DescribeCodeExecutionOptions = {}): ResolvedDescribeCodeExecutionOptions {
  const problems: string[] = [];
  checkObject(problems, options, "options", DESCRIPTION_OPTIONS);
  checkExclude(problems, options);
  if (options.maxDescriptionBytes !== undefined && !isWholeNumber(options.maxDescriptionBytes, 1)) {
    problems.push(`Expected a whole number of bytes from 1, got ${describeValue(options.maxDescriptionBytes)} at options.maxDescriptionBytes`);
  }
  if (options.searchFirst !== undefined && typeof options.searchFirst !== "boolean") problems.push(`Expected true or false, got ${describeValue(options.searchFirst)} at options.searchFirst`);
  const limits: unknown = options.limits ?? {};
  if (checkObject(problems, limits, "options.limits", LIMIT_OPTIONS)) {
    const { timeoutMs, maxToolCalls, allowedServers } = limits as Record<string, unknown>;
    if (timeoutMs !== undefined && !isWholeNumber(timeoutMs, 1)) problems.push(`Expected a whole number of ms from 1, got ${describeValue(timeoutMs)} at options.limits.timeoutMs`);
    if (maxToolCalls !== undefined && !isWholeNumber(maxToolCalls, 0)) problems.push(`Expected a whole number from 0, got ${describeValue(maxToolCalls)} at options.limits.maxToolCalls`);
    if (allowedServers !== undefined && !isStringList(allowedServers)) problems.push(`Expected a list of server names, got ${describeValue(allowedServers)} at options.limits.allowedServers`);
  }
  throwIfAny(problems, "code execution description");
  const given = options.limits ?? {};
  return {
    maxDescriptionBytes: options.maxDescriptionBytes ?? DEFAULT_MAX_DESCRIPTION_BYTES,
    exclude: [...(options.exclude ?? [])],
    limits: { ...given, ...(given.allowedServers === undefined ? {} : { allowedServers: [...given.allowedServers] }) },
    searchFirst: options.searchFirst === true,
  };
}

/** True when `value` is a plain object; reports it otherwise, and reports each unknown key. */
function checkObject(problems: string[], value: unknown, where: string, known: readonly string[]): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    problems.push(`Expected an object, got ${describeValue(value)} at ${where}`);
    return false;
  }
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) problems.push(`Unknown option "${key}" at ${where}; expected one of ${known.join(", ")}`);
  }
  return true;
}

function checkExclude(problems: string[], options: GenerateToolDeclarationsOptions): void {
  if (options.exclude !== undefined && !isStringList(options.exclude)) problems.push(`Expected a list of tool names, got ${describeValue(options.exclude)} at options.exclude`);
}

function throwIfAny(problems: string[], what: string): void {
  if (problems.length > 0) throw new ToolexecError("INVALID_OPTIONS", `Invalid ${what} options: ${problems.join("; ")}`, { details: { problems } });
}

function isWholeNumber(value: unknown, minimum: number): boolean {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= minimum;
}

function isStringList(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}
