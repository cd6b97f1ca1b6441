// An agent loop over this repository's example tools (tools.json) with the OpenAI Responses API.
// Needs `npm run build` and OPENAI_API_KEY; OPENAI_BASE_URL points it at any compatible server.
// Run: node examples/openai-responses-agent-loop.mjs "your question"
import OpenAI from "openai";
import { createExecutor } from "../dist/index.js";
import { runOpenAiResponsesToolCalls, toOpenAiResponsesTools } from "../dist/llm.js";

const root = new URL("..", import.meta.url).pathname;
const question = process.argv[2] ?? "Which region sold the most units in examples/sales.csv, and what is 26.2 miles in km?";
const model = process.env.OPENAI_MODEL ?? "gpt-4.1-mini";
// Never more than this many model turns: a loop that does not converge must still end.
const MAX_TURNS = 8;

const executor = await createExecutor({ root, watch: false });
try {
  const openai = new OpenAI();
  const { tools, mapping } = toOpenAiResponsesTools(await executor.listTools());
  const input = [{ role: "user", content: question }];
  for (let turn = 0; turn < MAX_TURNS; turn += 1) {
    const response = await openai.responses.create({ model, input, tools });
    // The model's function calls go back as input, followed by their outputs.
    input.push(...response.output);
    const outputs = await runOpenAiResponsesToolCalls(executor, response.output, { mapping, timeoutMs: 60_000 });
    if (outputs.length === 0) {
      console.log(response.output_text);
      break;
    }
    for (const output of outputs) console.error(`← ${output.output.slice(0, 200)}`);
    input.push(...outputs);
  }
} finally {
  await executor.close();
}
