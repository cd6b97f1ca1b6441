// An agent loop over this repository's example tools (tools.json) with the OpenAI Chat Completions
// API: the model asks for tools, toolexec runs them, the answers go back, until the model answers.
// Needs `npm run build` and OPENAI_API_KEY; OPENAI_BASE_URL points it at any compatible server
// (a local model server, for instance). Run: node examples/openai-chat-agent-loop.mjs "your question"
import OpenAI from "openai";
import { createExecutor } from "../dist/index.js";
import { runOpenAiToolCalls, toOpenAiChatTools } from "../dist/llm.js";

const root = new URL("..", import.meta.url).pathname;
const question = process.argv[2] ?? "Which region sold the most units in examples/sales.csv, and what is 26.2 miles in km?";
const model = process.env.OPENAI_MODEL ?? "gpt-4.1-mini";
// Never more than this many model turns: a loop that does not converge must still end.
const MAX_TURNS = 8;

const executor = await createExecutor({ root, watch: false });
try {
  const openai = new OpenAI();
  const { tools, mapping, nonStrict } = toOpenAiChatTools(await executor.listTools());
  for (const { tool, reason } of nonStrict) console.error(`(${tool} is sent non-strict: ${reason})`);
  const messages = [{ role: "user", content: question }];
  for (let turn = 0; turn < MAX_TURNS; turn += 1) {
    const completion = await openai.chat.completions.create({ model, messages, tools });
    const message = completion.choices[0].message;
    messages.push(message);
    if (!message.tool_calls?.length) {
      console.log(message.content);
      break;
    }
    for (const call of message.tool_calls) console.error(`→ ${mapping.fromProvider(call.function.name) ?? call.function.name} ${call.function.arguments}`);
    const answers = await runOpenAiToolCalls(executor, message, { mapping, timeoutMs: 60_000 });
    for (const answer of answers) console.error(`← ${answer.content.slice(0, 200)}`);
    messages.push(...answers);
  }
} finally {
  await executor.close();
}
