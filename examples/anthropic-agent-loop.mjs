// An agent loop over this repository's example tools (tools.json) with Anthropic's Messages API.
// Needs `npm run build` and ANTHROPIC_API_KEY; ANTHROPIC_BASE_URL points it at another server.
// Run: node examples/anthropic-agent-loop.mjs "your question"
import Anthropic from "@anthropic-ai/sdk";
import { createExecutor } from "../dist/index.js";
import { runAnthropicToolCalls, toAnthropicTools } from "../dist/llm.js";

const root = new URL("..", import.meta.url).pathname;
const question = process.argv[2] ?? "Which region sold the most units in examples/sales.csv, and what is 26.2 miles in km?";
const model = process.env.ANTHROPIC_MODEL ?? "claude-sonnet-4-5";
// Never more than this many model turns: a loop that does not converge must still end.
const MAX_TURNS = 8;

const executor = await createExecutor({ root, watch: false });
try {
  const anthropic = new Anthropic();
  const { tools, mapping } = toAnthropicTools(await executor.listTools());
  const messages = [{ role: "user", content: question }];
  for (let turn = 0; turn < MAX_TURNS; turn += 1) {
    const message = await anthropic.messages.create({ model, max_tokens: 4096, messages, tools });
    messages.push({ role: "assistant", content: message.content });
    if (message.stop_reason !== "tool_use") {
      console.log(message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join(""));
      break;
    }
    const results = await runAnthropicToolCalls(executor, message, { mapping, timeoutMs: 60_000 });
    for (const result of results) console.error(`← ${result.content.slice(0, 200)}`);
    messages.push({ role: "user", content: results });
  }
} finally {
  await executor.close();
}
