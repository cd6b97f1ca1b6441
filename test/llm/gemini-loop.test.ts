/**
 * Wire level: the official `@google/genai` SDK, pointed at a local server that replays Gemini's
 * documented generateContent responses, completes a two-step tool loop through toolexec.
 */
import { GoogleGenAI, type Content } from "@google/genai";
import { describe, expect, it } from "vitest";
import { runGeminiToolCalls, toGeminiTools } from "../../src/llm.js";
import { startCalculator } from "./llm-test-helpers.js";
import { geminiAnswer as answer } from "./provider-responses.js";
import { startScriptedProvider } from "./scripted-provider.js";

describe("Gemini generateContent through the official SDK", () => {
  it("asks for the tool, gets its result, answers", async () => {
    const executor = await startCalculator();
    const { tools, mapping } = toGeminiTools(await executor.listTools(), { filter: (tool) => tool.name !== "read_result" });
    const provider = await startScriptedProvider([
      answer([{ functionCall: { id: "fc_1", name: mapping.toProvider("calc.add"), args: { a: 2, b: 3 } } }, { functionCall: { name: "nope", args: {} } }]),
      answer([{ text: "2 + 3 = 5." }]),
    ]);
    const ai = new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: provider.url } });
    const contents: Content[] = [{ role: "user", parts: [{ text: "What is 2 + 3?" }] }];

    const first = await ai.models.generateContent({ model: "gemini-test", contents, config: { tools } });
    const content = first.candidates![0]!.content!;
    contents.push(content, { role: "user", parts: await runGeminiToolCalls(executor, content, { mapping }) });
    const second = await ai.models.generateContent({ model: "gemini-test", contents, config: { tools } });

    expect(second.text).toBe("2 + 3 = 5.");
    expect(provider.requests[0]!.path).toMatch(/^\/v1beta\/models\/gemini-test:generateContent/);
    expect(provider.requests[0]!.body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: "calc.add",
            description: "Add two numbers.",
            parameters: { type: "OBJECT", properties: { a: { type: "NUMBER" }, b: { type: "NUMBER" }, note: { type: "STRING" } }, required: ["a", "b"] },
          },
        ],
      },
    ]);
    const [added, missing] = provider.requests[1]!.body.contents.at(-1).parts;
    expect(added).toEqual({ functionResponse: { id: "fc_1", name: "calc.add", response: { output: { sum: 5 } } } });
    expect(missing.functionResponse.name).toBe("nope");
    expect(missing.functionResponse.response.error).toMatch(/^TOOL_NOT_FOUND: /);
  });
});
