/**
 * `toolexec/code`: the types of code mode (`executor.executeCode`, the `code_execution` tool) and
 * saved tools, and the tool's input schema for hosts that offer it to a model themselves. See
 * docs/code-execution.md and docs/saved-tools.md.
 *
 * @example
 * import type { CodeResult } from "toolexec/code";
 * const run: CodeResult = await executor.executeCode({ code: "input.n * 2", input: { n: 21 } });
 * if (run.ok) console.log(run.value, run.toolCalls);
 */
export type { CodeRequest, CodeResult, CodeToolCall } from "./plugins/code/code-result.js";
export type { CodeExecutionConfig } from "./plugins/code/config/code-execution-config-schema.js";
export type { SavedTool, SavedToolDefinition } from "./plugins/code/saved/saved-tool-file.js";
export type { SavedToolSummary } from "./plugins/code/saved/saved-tools.js";
export { codeExecutionInputSchema } from "./plugins/code/declarations/code-execution-input-schema.js";
