/**
 * Registry tools as LangChain.js structured tools (`DynamicStructuredTool` with the tool's JSON Schema),
 * for `model.bindTools(tools)` and `tool.invoke(toolCall)`. A call runs through the executor; its
 * answer is a `ToolMessage` whose `status` is `"error"` for a failure (`CODE: message`) and whose
 * `artifact` is the result envelope. Arguments LangChain's own schema check refuses are answered the
 * same way (the executor's `INVALID_INPUT`), not thrown, so the model can correct them.
 */
import { ToolMessage } from "@langchain/core/messages";
import { DynamicStructuredTool, ToolInputParsingException } from "@langchain/core/tools";
import type { Executor, JsonSchema, ToolInfo } from "../index.js";
import { inlineReferences } from "./inline-references.js";
import { prepareFrameworkTools, type FrameworkToolOptions } from "./framework-tools.js";
import type { ToolCallAnswer } from "./run-tool-calls.js";
import type { ToolMapping } from "./tool-mapping.js";

/** A LangChain structured tool made from a registry tool. */
export type LangChainTool = DynamicStructuredTool<JsonSchema, Record<string, unknown>, Record<string, unknown>, ToolMessage | string>;

/** The tools for `bindTools`, and the mapping of the names the model sees. */
export interface LangChainTools {
  tools: LangChainTool[];
  mapping: ToolMapping;
}

type MaybeToolCall = { type?: unknown; id?: unknown; args?: unknown } | undefined;

/** Whether LangChain was handed a tool call (`{ type: "tool_call", id, name, args }`) rather than arguments. */
const isToolCall = (arg: unknown): arg is { id?: unknown; args: unknown } => (arg as MaybeToolCall)?.type === "tool_call";

/** The id of the tool call being run, as LangChain finds it: on the call, or on `config.toolCall`. */
const toolCallIdOf = (arg: unknown, config: object | undefined): string | undefined => {
  const id = isToolCall(arg) ? arg.id : (config as { toolCall?: MaybeToolCall } | undefined)?.toolCall?.id;
  return typeof id === "string" ? id : undefined;
};

/** What LangChain returns for an answer: a `ToolMessage` when there is a call id to answer, else the text. */
const toToolOutput = (answer: ToolCallAnswer, name: string, toolCallId: string | undefined): ToolMessage | string =>
  toolCallId === undefined ? answer.text : new ToolMessage({ content: answer.text, tool_call_id: toolCallId, name, status: answer.isError ? "error" : "success", artifact: answer.result });

/**
 * @example
 * const { tools } = toLangChainTools(executor, await executor.listTools());
 * const model = chatModel.bindTools(tools);
 * const reply = await model.invoke(messages);
 * for (const call of reply.tool_calls ?? []) messages.push(await tools.find((tool) => tool.name === call.name)!.invoke(call));
 */
export function toLangChainTools(executor: Pick<Executor, "callTool">, listed: readonly ToolInfo[], options: FrameworkToolOptions = {}): LangChainTools {
  const { tools, mapping, run } = prepareFrameworkTools(executor, listed, options);
  const answer = async (name: string, args: unknown, toolCallId: string | undefined, signal: AbortSignal | undefined) => toToolOutput(await run(name, args, toolCallId, signal), name, toolCallId);
  return {
    tools: tools.map((info) => {
      const name = mapping.toProvider(info.name)!;
      const made: LangChainTool = new DynamicStructuredTool({
        name,
        description: info.description,
        schema: inlineReferences(info.inputSchema),
        func: (input, _runManager, config) => answer(name, input, toolCallIdOf(undefined, config), config?.signal),
      });
      const call = made.call.bind(made);
      // LangChain checks arguments against the schema before `func` and throws; the executor's answer teaches the model more.
      made.call = (async (arg: unknown, config?: { signal?: AbortSignal; toolCall?: unknown }, tags?: string[]) => {
        try {
          return await call(arg as never, config as never, tags);
        } catch (error) {
          if (!(error instanceof ToolInputParsingException)) throw error;
          const args = isToolCall(arg) ? arg.args : arg;
          return answer(name, args, toolCallIdOf(arg, config), config?.signal);
        }
      }) as typeof made.call;
      return made;
    }),
    mapping,
  };
}
