/** request_human_input: listed only with a handler; answers, refusals, timeouts and cancels. */
import { describe, expect, it } from "vitest";
import { createExecutor, type HumanInputHandler } from "../../src/index.js";
import { deferred } from "../helpers/deferred.js";
import { LATENESS_MARGIN_MS } from "../helpers/lateness-margin.js";
import { createTempProject } from "../helpers/temp-project.js";

async function executorWith(onHumanInput?: HumanInputHandler) {
  const project = createTempProject({ tools: { tools: [] } });
  return createExecutor({ root: project.root, watch: false, logDir: false, ...(onHumanInput ? { onHumanInput } : {}) });
}

describe("request_human_input", () => {
  it("is not listed, and is TOOL_NOT_FOUND, without onHumanInput", async () => {
    const executor = await executorWith();
    expect((await executor.listTools()).map((tool) => tool.name)).not.toContain("request_human_input");
    expect(await executor.callTool("request_human_input", { question: "?" })).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND" } });
    await executor.close();
  });

  it("returns the person's answer, passing the question, options and execution id", async () => {
    const requests: unknown[] = [];
    const executor = await executorWith(async (request) => {
      requests.push({ question: request.question, options: request.options, id: request.executionId });
      return "blue";
    });
    const [listed] = (await executor.listTools()).filter((tool) => tool.name === "request_human_input");
    expect(listed?.inputSchema.required).toEqual(["question"]);
    const result = await executor.callTool("request_human_input", { question: "Which colour?", options: ["red", "blue"] });
    expect(result).toMatchObject({ ok: true, value: "blue" });
    expect(requests).toEqual([{ question: "Which colour?", options: ["red", "blue"], id: result.executionId }]);
    await executor.close();
  });

  it("refuses an answer outside the offered options, and a non-string answer", async () => {
    let answer: unknown = "green";
    const executor = await executorWith(async () => answer as string);
    expect(await executor.callTool("request_human_input", { question: "Colour?", options: ["red", "blue"] })).toMatchObject({
      ok: false,
      error: { code: "INVALID_OUTPUT", message: 'The answer "green" is not one of the offered options' },
    });
    answer = 42;
    expect(await executor.callTool("request_human_input", { question: "Number?" })).toMatchObject({
      ok: false,
      error: { code: "INVALID_OUTPUT", message: "onHumanInput must return a string, got number" },
    });
    await executor.close();
  });

  it("reports a throwing handler as HUMAN_INPUT_UNAVAILABLE", async () => {
    const executor = await executorWith(() => {
      throw new Error("nobody at the keyboard");
    });
    expect(await executor.callTool("request_human_input", { question: "Anyone?" })).toMatchObject({
      ok: false,
      error: { code: "HUMAN_INPUT_UNAVAILABLE", message: "No human input: onHumanInput failed: nobody at the keyboard" },
    });
    await executor.close();
  });

  it("times out a slow person at timeoutMs and withdraws the question", async () => {
    let withdrawn = false;
    const executor = await executorWith(
      ({ signal }) =>
        new Promise((resolve) => {
          signal.addEventListener("abort", () => {
            withdrawn = true;
            resolve("too late");
          });
        }),
    );
    const started = Date.now();
    const result = await executor.callTool("request_human_input", { question: "Still there?", timeoutMs: 150 });
    expect(result).toMatchObject({ ok: false, error: { code: "TIMEOUT", message: "No answer from a person within 150 ms" } });
    // The callback would never answer; the margin is for a busy machine.
    expect(Date.now() - started).toBeLessThan(150 + LATENESS_MARGIN_MS);
    expect(withdrawn).toBe(true);
    await executor.close();
  });

  it("is cancelled by the caller's signal and by close()", async () => {
    // The host callback says when the question reached it; only then is the call stopped.
    let reached = () => {};
    const nextQuestion = () => new Promise<void>((resolve) => (reached = resolve));
    const executor = await executorWith(() => {
      reached();
      return new Promise(() => {});
    });
    const controller = new AbortController();
    const asked = nextQuestion();
    const cancelled = executor.callTool("request_human_input", { question: "?" }, { signal: controller.signal });
    await asked;
    controller.abort();
    expect(await cancelled).toMatchObject({ ok: false, error: { code: "CANCELLED" } });
    const askedAgain = nextQuestion();
    const pending = executor.callTool("request_human_input", { question: "?" });
    await askedAgain;
    await executor.close();
    expect(await pending).toMatchObject({ ok: false, error: { code: "EXECUTOR_CLOSED" } });
  });

  it("validates its input: an empty question or unknown field is INVALID_INPUT", async () => {
    let asked = 0;
    const executor = await executorWith(() => (asked++, "x"));
    expect(await executor.callTool("request_human_input", { question: "" })).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });
    expect(await executor.callTool("request_human_input", { question: "q", urgent: true })).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });
    expect(await executor.callTool("request_human_input", { question: "q", options: [] })).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });
    expect(asked).toBe(0);
    await executor.close();
  });

  it("lets several questions wait at once", async () => {
    let waiting = 0;
    let mostWaiting = 0;
    // Each question is held until all three are waiting; were they asked one at a time, the first
    // would be let go after 5 s with one waiting, and the count below would say so.
    const allWaiting = deferred();
    const executor = await executorWith(async ({ question }) => {
      mostWaiting = Math.max(mostWaiting, ++waiting);
      if (waiting === 3) allWaiting.resolve();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([allWaiting.promise, new Promise((resolve) => (timer = setTimeout(resolve, 5_000)))]);
      clearTimeout(timer);
      waiting--;
      return question.toUpperCase();
    });
    const results = await Promise.all(["a", "b", "c"].map((question) => executor.callTool("request_human_input", { question })));
    expect(results.map((result) => result.ok && result.value)).toEqual(["A", "B", "C"]);
    expect(mostWaiting).toBe(3);
    await executor.close();
  });
});
