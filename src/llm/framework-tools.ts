/**
 * What the AI SDK and LangChain adapters share: those frameworks call each tool themselves, so a tool
 * object carries its own runner. This selects the tools, maps their names (the framework hands them
 * to whichever provider is behind it, so by the rule all providers accept: `portable`)
 * and runs one call through `runToolCalls` under the options' signal joined with the framework's.
 */
import type { Executor, ToolInfo } from "../index.js";
import { runOptionProblems, runToolCalls, type RunToolCallsOptions, type ToolCallAnswer } from "./run-tool-calls.js";
import { selectTools, type ToolSelectionOptions } from "./select-tools.js";
import { createToolMapping, type ToolMapping } from "./tool-mapping.js";

/** Which tools, and how each call runs: `signal` and `onProgress` as for `runToolCalls`, `timeoutMs` per call. */
export interface FrameworkToolOptions extends ToolSelectionOptions, Omit<RunToolCallsOptions, "mapping"> {}

const RUN_OPTIONS = ["signal", "timeoutMs", "onProgress"];

export interface FrameworkTools {
  tools: ToolInfo[];
  mapping: ToolMapping;
  /** Runs one call of the tool the model knows as `name`; `signal` is the framework's own. */
  run(name: string, args: unknown, callId: string | undefined, signal: AbortSignal | undefined): Promise<ToolCallAnswer>;
}

export function prepareFrameworkTools(executor: Pick<Executor, "callTool">, listed: readonly ToolInfo[], options: FrameworkToolOptions): FrameworkTools {
  const tools = selectTools(listed, options, RUN_OPTIONS, runOptionProblems);
  const mapping = createToolMapping(tools, "portable");
  const { signal, timeoutMs, onProgress } = options;
  return {
    tools,
    mapping,
    async run(name, args, callId, frameworkSignal) {
      const signals = [signal, frameworkSignal].filter((given): given is AbortSignal => given !== undefined);
      const both = signals.length < 2 ? signals[0] : AbortSignal.any(signals);
      const [answer] = await runToolCalls(executor, [{ id: callId ?? name, name, arguments: args }], { mapping, signal: both, timeoutMs, onProgress });
      return answer!;
    },
  };
}
