/**
 * Registry tools as a Vercel AI SDK `tools` object: one `tool({ description, inputSchema:
 * jsonSchema(…), execute })` per registry tool, whose `execute` runs the call through the executor
 * and whose `toModelOutput` tells the model a failure as `error-text` (`CODE: message`), so the AI SDK
 * loop (`generateText`/`streamText` with `stopWhen`) runs toolexec tools with no glue.
 */
import { jsonSchema, tool, type JSONSchema7, type Tool } from "ai";
import type { Executor, ToolInfo } from "../index.js";
import { inlineReferences } from "./inline-references.js";
import { toAiSdkOutput, type AiSdkToolOutput } from "./ai-sdk-tool-calls.js";
import { prepareFrameworkTools, type FrameworkToolOptions } from "./framework-tools.js";
import type { ToolMapping } from "./tool-mapping.js";

/** An AI SDK tool made from a registry tool (`Tool` in `ai`). */
export type AiSdkTool = Tool<Record<string, unknown>, AiSdkToolOutput>;

/** The AI SDK's `tools` object (a `ToolSet`), keyed by the names the model sees, and the mapping of those names. */
export interface AiSdkTools {
  tools: Record<string, AiSdkTool>;
  mapping: ToolMapping;
}

/**
 * @example
 * const { tools } = toAiSdkTools(executor, await executor.listTools());
 * const { text } = await generateText({ model, tools, stopWhen: stepCountIs(10), prompt });
 */
export function toAiSdkTools(executor: Pick<Executor, "callTool">, listed: readonly ToolInfo[], options: FrameworkToolOptions = {}): AiSdkTools {
  const { tools, mapping, run } = prepareFrameworkTools(executor, listed, options);
  const entries = tools.map((info) => {
    const name = mapping.toProvider(info.name)!;
    const made = tool<Record<string, unknown>, AiSdkToolOutput>({
      description: info.description,
      inputSchema: jsonSchema<Record<string, unknown>>(inlineReferences(info.inputSchema) as JSONSchema7),
      async execute(input, { toolCallId, abortSignal }) {
        const { call: _call, ...output } = await run(name, input, toolCallId, abortSignal);
        return output;
      },
      toModelOutput: ({ output }) => toAiSdkOutput(output),
    });
    return [name, made] as const;
  });
  return { tools: Object.fromEntries(entries), mapping };
}
