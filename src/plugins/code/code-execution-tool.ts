/**
 * The `code_execution` tool definition. Its description is generated from the live registry by
 * declarations/ (when to use code mode, the call_tool contract, TypeScript declarations of every
 * callable tool) and regenerated after any change to the tool list.
 */
import type { CallerAccess, Logger, ToolDefinition } from "../../core/plugin-contract.js";
import type { ResolvedCodeExecutionOptions } from "./config/code-execution-options.js";
import { CODE_EXECUTION_TOOL_NAME, codeExecutionInputSchema, describeCodeExecutionTool } from "./declarations/index.js";

/** The pipeline's budget for the tool exceeds the run's own, so the plugin always answers first. */
export const PIPELINE_GRACE_MS = 1_000;

/** Said when the description cannot be generated: enough for the sandbox API to be usable. */
const FALLBACK_DESCRIPTION =
  "Run a JavaScript program in a sandbox that calls tools: tools.<server>.<tool>(args) returns a promise of the value; " +
  "call_tool(server, tool, args) returns { ok, value | error } and works without await. The last expression's value is the result. " +
  'Use search_tools("words") and describe_tool("server.tool") inside the program to find tools.';

export interface CodeExecutionToolOptions {
  options: ResolvedCodeExecutionOptions;
  /** Under the search-first listing the description names only servers and points to `search_tools`. */
  searchFirst?: boolean;
  /** Every tool in the registry right now. */
  listTools(): readonly ToolDefinition[];
  logger: Logger;
  /** The description as a served caller reads it: only the tools its access lets it see (caller-catalogs.ts). */
  describeFor?(access: CallerAccess): string;
}

export interface CodeExecutionTool {
  definition: ToolDefinition;
  /** Forget the cached description: the tool list changed. */
  invalidate(): void;
  /** The description for these tools (a caller's view of the registry). */
  describe(tools: readonly ToolDefinition[]): string;
}

/**
 * The definition, with a description computed when first read after each change (the registry is
 * complete by then, including tools of plugins started after this one).
 *
 * @example
 * const tool = createCodeExecutionTool({ options, listTools: context.listTools, logger });
 * context.onToolsChanged(tool.invalidate);
 */
export function createCodeExecutionTool({ options, searchFirst = false, listTools, logger, describeFor }: CodeExecutionToolOptions): CodeExecutionTool {
  let description: string | undefined;
  const describe = (tools: readonly ToolDefinition[]): string => {
    try {
      return describeCodeExecutionTool(tools, {
        exclude: options.excludeTools,
        searchFirst,
        ...(options.maxDescriptionBytes === undefined ? {} : { maxDescriptionBytes: options.maxDescriptionBytes }),
        limits: {
          timeoutMs: options.timeoutMs,
          maxToolCalls: options.maxToolCalls,
          ...(options.allowedServers === null ? {} : { allowedServers: options.allowedServers }),
        },
      });
    } catch (error) {
      logger.warn(`Could not generate the code_execution description: ${(error as Error).message}`);
      return FALLBACK_DESCRIPTION;
    }
  };
  const definition: ToolDefinition = {
    name: CODE_EXECUTION_TOOL_NAME,
    get description() {
      description ??= describe(listTools());
      return description;
    },
    ...(describeFor === undefined ? {} : { describeFor }),
    inputSchema: codeExecutionInputSchema,
    annotations: { title: "Run code that calls tools", openWorldHint: true },
    timeoutMs: options.maxTimeoutMs + PIPELINE_GRACE_MS,
    parallel: true,
    // Its runtime pool bounds it, and its sub-calls take slots: holding one as well would let a few
    // runs starve their own tool calls.
    selfScheduled: true,
  };
  return {
    definition,
    describe,
    invalidate() {
      description = undefined;
    },
  };
}
