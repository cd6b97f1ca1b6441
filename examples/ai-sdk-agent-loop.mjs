// An agent loop over this repository's example tools (tools.json) with the Vercel AI SDK: the tools
// run themselves (each has an `execute`), and `stopWhen` bounds the steps. This one talks to OpenAI's
// Chat Completions through `@ai-sdk/openai`; any AI SDK provider works the same way.
// Needs `npm run build` and OPENAI_API_KEY; OPENAI_BASE_URL points it at any compatible server.
// Run: node examples/ai-sdk-agent-loop.mjs "your question"
import { openai } from "@ai-sdk/openai";
import { generateText, stepCountIs } from "ai";
import { createExecutor } from "../dist/index.js";
import { toAiSdkTools } from "../dist/llm/ai-sdk.js";

const root = new URL("..", import.meta.url).pathname;
const question = process.argv[2] ?? "Which region sold the most units in examples/sales.csv, and what is 26.2 miles in km?";
const model = process.env.OPENAI_MODEL ?? "gpt-4.1-mini";
// Never more than this many model turns: a loop that does not converge must still end.
const MAX_TURNS = 8;

const executor = await createExecutor({ root, watch: false });
try {
  const { tools } = toAiSdkTools(executor, await executor.listTools(), { timeoutMs: 60_000 });
  const result = await generateText({
    model: openai.chat(model),
    tools,
    stopWhen: stepCountIs(MAX_TURNS),
    prompt: question,
    onStepFinish: ({ toolResults }) => {
      for (const { output } of toolResults) console.error(`← ${output.text.slice(0, 200)}`);
    },
  });
  console.log(result.text);
} finally {
  await executor.close();
}
