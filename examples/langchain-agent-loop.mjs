// An agent loop over this repository's example tools (tools.json) with LangChain.js: a chat model
// bound to toolexec's structured tools, each tool call invoked on its tool, until the model answers.
// This one uses `@langchain/openai`; any LangChain chat model with tool calling works the same way.
// Needs `npm run build` and OPENAI_API_KEY; OPENAI_BASE_URL points it at any compatible server.
// Run: node examples/langchain-agent-loop.mjs "your question"
import { HumanMessage, ToolMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { createExecutor } from "../dist/index.js";
import { toLangChainTools } from "../dist/llm/langchain.js";

const root = new URL("..", import.meta.url).pathname;
const question = process.argv[2] ?? "Which region sold the most units in examples/sales.csv, and what is 26.2 miles in km?";
const model = process.env.OPENAI_MODEL ?? "gpt-4.1-mini";
// Never more than this many model turns: a loop that does not converge must still end.
const MAX_TURNS = 8;

const executor = await createExecutor({ root, watch: false });
try {
  const { tools } = toLangChainTools(executor, await executor.listTools(), { timeoutMs: 60_000 });
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const chat = new ChatOpenAI({ model, configuration: { baseURL: process.env.OPENAI_BASE_URL } }).bindTools(tools);
  const messages = [new HumanMessage(question)];
  for (let turn = 0; turn < MAX_TURNS; turn += 1) {
    const reply = await chat.invoke(messages);
    messages.push(reply);
    if (!reply.tool_calls?.length) {
      console.log(reply.content);
      break;
    }
    // Each answer is a ToolMessage (status "error" for a failure the model should read and correct).
    const answers = await Promise.all(
      reply.tool_calls.map((call) => byName.get(call.name)?.invoke(call) ?? new ToolMessage({ content: `TOOL_NOT_FOUND: no tool named "${call.name}"`, tool_call_id: call.id, status: "error" })),
    );
    for (const answer of answers) console.error(`← ${String(answer.content).slice(0, 200)}`);
    messages.push(...answers);
  }
} finally {
  await executor.close();
}
