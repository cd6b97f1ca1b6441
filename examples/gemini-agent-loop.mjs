// An agent loop over this repository's example tools (tools.json) with Gemini (`@google/genai`).
// Needs `npm run build` and GEMINI_API_KEY; GOOGLE_GEMINI_BASE_URL points it at another server.
// Run: node examples/gemini-agent-loop.mjs "your question"
import { GoogleGenAI } from "@google/genai";
import { createExecutor } from "../dist/index.js";
import { runGeminiToolCalls, toGeminiTools } from "../dist/llm.js";

const root = new URL("..", import.meta.url).pathname;
const question = process.argv[2] ?? "Which region sold the most units in examples/sales.csv, and what is 26.2 miles in km?";
const model = process.env.GEMINI_MODEL ?? "gemini-2.5-flash";
// Never more than this many model turns: a loop that does not converge must still end.
const MAX_TURNS = 8;

const executor = await createExecutor({ root, watch: false });
try {
  const ai = new GoogleGenAI({ apiKey: process.env.GEMINI_API_KEY });
  const { tools, mapping } = toGeminiTools(await executor.listTools());
  const contents = [{ role: "user", parts: [{ text: question }] }];
  for (let turn = 0; turn < MAX_TURNS; turn += 1) {
    const response = await ai.models.generateContent({ model, contents, config: { tools } });
    const content = response.candidates?.[0]?.content;
    if (!response.functionCalls?.length || content === undefined) {
      console.log(response.text);
      break;
    }
    const parts = await runGeminiToolCalls(executor, content, { mapping, timeoutMs: 60_000 });
    for (const part of parts) console.error(`← ${JSON.stringify(part.functionResponse.response).slice(0, 200)}`);
    contents.push(content, { role: "user", parts });
  }
} finally {
  await executor.close();
}
