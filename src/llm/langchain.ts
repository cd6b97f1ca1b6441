/**
 * `toolexec/llm/langchain`: the registry's tools as LangChain.js structured tools. Needs
 * `@langchain/core`, version 1; see docs/llm-providers.md.
 *
 * @example
 * import { toLangChainTools } from "toolexec/llm/langchain";
 * const { tools } = toLangChainTools(executor, await executor.listTools());
 * const model = new ChatOpenAI({ model: "gpt-4.1" }).bindTools(tools);
 */
export { toLangChainTools } from "./langchain-tools.js";
export type { LangChainTool, LangChainTools } from "./langchain-tools.js";
export type { FrameworkToolOptions } from "./framework-tools.js";
