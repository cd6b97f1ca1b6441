/**
 * Which tools a model is shown, and how much of each description, for every provider's `to*Tools`:
 * a filter, code mode's listing (only `code_execution` and the tools code may not call), and a
 * description length limit. Options are checked here once; a wrong one throws `INVALID_OPTIONS`.
 */
import { CODE_EXECUTION_TOOL_NAME, ToolexecError, type ToolInfo } from "../index.js";
import { toDraft2020Schema } from "../plugin.js";
import { isPlainObject } from "./is-plain-object.js";
import { kindOf } from "./kind-of.js";

/** The options every `to*Tools` function takes. */
export interface ToolSelectionOptions {
  /** Keep only the tools for which this returns true. */
  filter?: (tool: ToolInfo) => boolean;
  /**
   * Show only `code_execution` and `excludeTools` (the tools code mode leaves out, listed directly),
   * as `codeExecution.listOnlyCodeExecution` does: the model reaches every other tool through code.
   * `true` is `{ excludeTools: [] }`. The tools must include `code_execution`.
   */
  codeMode?: boolean | { excludeTools?: readonly string[] };
  /** Descriptions longer than this many characters are cut, ending in `…`. */
  maxDescriptionLength?: number;
}

const KNOWN_OPTIONS = ["filter", "codeMode", "maxDescriptionLength"];

/**
 * The tools to show, in order, with descriptions cut to the limit. `known` lists the keys of the
 * caller's own options besides these, and `knownProblems` checks their values.
 *
 * @example
 * selectTools(await executor.listTools(), { codeMode: { excludeTools: ["deploy"] }, maxDescriptionLength: 1024 });
 */
export function selectTools(tools: readonly ToolInfo[], options: ToolSelectionOptions = {}, known: readonly string[] = [], knownProblems: (options: Record<string, unknown>) => string[] = () => []): ToolInfo[] {
  const codeMode = checkOptions(options, known, knownProblems);
  let selected = options.filter === undefined ? [...tools] : tools.filter((tool) => options.filter!(tool));
  if (codeMode !== undefined) {
    if (!tools.some((tool) => tool.name === CODE_EXECUTION_TOOL_NAME)) {
      throw new ToolexecError("INVALID_OPTIONS", `Invalid tool options: codeMode lists only "${CODE_EXECUTION_TOOL_NAME}" and the excluded tools, but "${CODE_EXECUTION_TOOL_NAME}" is not among the tools (enable codeExecution)`);
    }
    selected = selected.filter((tool) => codeMode.has(tool.name));
  }
  // Tools from anywhere (not only `listTools`) reach providers in draft 2020-12.
  selected = selected.map(withDraft2020Schemas);
  const limit = options.maxDescriptionLength;
  if (limit === undefined) return selected;
  return selected.map((tool) => {
    // Counted in code points, so a cut never splits a character in two.
    const characters = [...tool.description];
    return characters.length <= limit ? tool : { ...tool, description: `${characters.slice(0, limit - 1).join("")}…` };
  });
}

/** `tool` with its schemas in draft 2020-12; the same object when they already are. */
function withDraft2020Schemas(tool: ToolInfo): ToolInfo {
  const inputSchema = toDraft2020Schema(tool.inputSchema);
  const outputSchema = tool.outputSchema === undefined ? undefined : toDraft2020Schema(tool.outputSchema);
  if (inputSchema === tool.inputSchema && outputSchema === tool.outputSchema) return tool;
  return { ...tool, inputSchema, ...(outputSchema === undefined ? {} : { outputSchema }) };
}

/** The names code mode lists (when `codeMode` is set); throws `INVALID_OPTIONS` naming every problem. */
function checkOptions(options: ToolSelectionOptions, known: readonly string[], knownProblems: (options: Record<string, unknown>) => string[]): Set<string> | undefined {
  const problems: string[] = [];
  if (!isPlainObject(options)) problems.push(`Expected an object, got ${kindOf(options)} at options`);
  else {
    const allowed = [...KNOWN_OPTIONS, ...known];
    for (const key of Object.keys(options)) if (!allowed.includes(key)) problems.push(`Unknown option "${key}" at options; expected one of ${allowed.join(", ")}`);
    const { filter, codeMode, maxDescriptionLength: limit } = options;
    if (filter !== undefined && typeof filter !== "function") problems.push(`Expected a function, got ${kindOf(filter)} at options.filter`);
    if (limit !== undefined && !(typeof limit === "number" && Number.isSafeInteger(limit) && limit >= 1)) problems.push(`Expected a whole number of characters from 1, got ${typeof limit === "number" ? limit : kindOf(limit)} at options.maxDescriptionLength`);
    if (codeMode !== undefined && typeof codeMode !== "boolean" && !isPlainObject(codeMode)) problems.push(`Expected true, false or { excludeTools }, got ${kindOf(codeMode)} at options.codeMode`);
    if (isPlainObject(codeMode)) {
      for (const key of Object.keys(codeMode)) if (key !== "excludeTools") problems.push(`Unknown option "${key}" at options.codeMode; expected excludeTools`);
      const excluded: unknown = codeMode.excludeTools;
      if (excluded !== undefined && !(Array.isArray(excluded) && excluded.every((name) => typeof name === "string"))) problems.push(`Expected a list of tool names, got ${kindOf(excluded)} at options.codeMode.excludeTools`);
    }
    problems.push(...knownProblems(options));
  }
  if (problems.length > 0) throw new ToolexecError("INVALID_OPTIONS", `Invalid tool options: ${problems.join("; ")}`, { details: { problems } });
  const { codeMode } = options;
  if (codeMode === undefined || codeMode === false) return undefined;
  return new Set([CODE_EXECUTION_TOOL_NAME, ...(codeMode === true ? [] : (codeMode.excludeTools ?? []))]);
}
