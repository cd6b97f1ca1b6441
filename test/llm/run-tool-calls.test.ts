/**
 * The runner behind every provider: calls run at once (a tool that is not `parallel` still one at a
 * time), one deadline for the batch, the caller's signal, and faults as answers, never throws (only
 * the host's own wrong options are refused).
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { runOpenAiToolCalls, runToolCalls, toOpenAiChatTools, type RunToolCallsOptions, type ToolCallProgressEvent } from "../../src/llm.js";
import { createTempProject, toolEntry, type TempProject } from "../helpers/temp-project.js";
import { startCalculator } from "./llm-test-helpers.js";

const executors: Executor[] = [];
afterEach(async () => {
  await Promise.all(executors.splice(0).map((executor) => executor.close()));
});

async function start(): Promise<{ executor: Executor; project: TempProject }> {
  const schema = { type: "object", properties: { id: { type: "string" }, seconds: { type: "string" } }, required: ["id"] };
  const project = createTempProject({
    tools: { tools: [toolEntry("serial", "shell", "record-turn.sh", { inputSchema: schema }), toolEntry("overlapping", "shell", "record-turn.sh", { parallel: true, inputSchema: schema })] },
  });
  project.useFixtures("record-turn.sh");
  const executor = await createExecutor({ root: project.root, watch: false, logDir: false, mcpConfig: false });
  executors.push(executor);
  return { executor, project };
}

const turns = (project: TempProject) => readFileSync(project.path("turns.log"), "utf8").trim().split("\n");
const calls = (name: string, ids: string[], seconds: string) => ids.map((id) => ({ id: `call_${id}`, name, arguments: JSON.stringify({ id, seconds }) }));

describe("runToolCalls", () => {
  it("runs the calls of a parallel tool at once, and answers in the order asked", async () => {
    const { executor, project } = await start();
    const answers = await runToolCalls(executor, calls("overlapping", ["a", "b", "c"], "0.5"));
    expect(answers.map((answer) => [answer.call.id, answer.text, answer.isError])).toEqual([
      ["call_a", "a", false],
      ["call_b", "b", false],
      ["call_c", "c", false],
    ]);
    expect(turns(project).slice(0, 3).every((turn) => turn.startsWith("start "))).toBe(true);
  });

  it("keeps a tool that is not parallel to one call at a time", async () => {
    const { executor, project } = await start();
    await runToolCalls(executor, calls("serial", ["a", "b"], "0.1"));
    expect(turns(project)).toEqual(["start a", "end a", "start b", "end b"]);
  });

  it("answers TIMEOUT for calls still running at the batch's deadline", async () => {
    const { executor } = await start();
    const started = Date.now();
    const answers = await runToolCalls(executor, [...calls("overlapping", ["slow"], "20"), ...calls("overlapping", ["quick"], "0")], { timeoutMs: 1_500 });
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(answers[0]!.text).toMatchInlineSnapshot(`"TIMEOUT: "overlapping" did not answer within the 1500 ms given to this batch of tool calls"`);
    expect(answers[0]!.isError).toBe(true);
    expect(answers[1]).toMatchObject({ text: "quick", isError: false });
  });

  it("answers CANCELLED when the caller's signal aborts", async () => {
    const { executor } = await start();
    const controller = new AbortController();
    // Abort once the call is under way, so it is the running call that is cancelled.
    executor.on("tool:start", () => controller.abort());
    const [answer] = await runToolCalls(executor, calls("overlapping", ["slow"], "20"), { signal: controller.signal, timeoutMs: 10_000 });
    expect(answer!.text).toMatch(/^CANCELLED: /);
  });

  it("turns bad arguments and unknown names into answers the model can read", async () => {
    const { executor } = await start();
    const { mapping } = toOpenAiChatTools(await executor.listTools());
    const answers = await runToolCalls(
      executor,
      [
        { id: "1", name: "overlapping", arguments: "not json" },
        { id: "2", name: "overlapping", arguments: '{"seconds":"0"}' },
        { id: "3", name: "overlaping", arguments: "{}" },
      ],
      { mapping },
    );
    expect(answers.map((answer) => answer.text)).toMatchInlineSnapshot(`
      [
        "INVALID_INPUT: the arguments are not valid JSON; send one JSON object. Received: not json",
        "INVALID_INPUT: Invalid arguments for "overlapping": arguments: missing required property "id"",
        "TOOL_NOT_FOUND: No tool named "overlaping"; did you mean "overlapping"?",
      ]
    `);
    expect(answers.every((answer) => answer.isError)).toBe(true);
  });

  it("tells progress: each call's start and end, with how many of the batch have ended", async () => {
    const { executor } = await start();
    const events: string[] = [];
    const onProgress = (event: ToolCallProgressEvent) => {
      events.push(`${event.type} ${event.call.id} ${event.tool} ${event.completed}/${event.total}${event.type === "end" ? ` ${event.answer.isError}` : ""}`);
      throw new Error("a listener's fault is ignored");
    };
    const answers = await runToolCalls(executor, [...calls("serial", ["a", "b"], "0"), { id: "call_bad", name: "serial", arguments: "{" }], { onProgress });
    expect(answers.map((answer) => answer.isError)).toEqual([false, false, true]);
    expect(events).toEqual(["start call_a serial 0/3", "start call_b serial 0/3", "end call_bad serial 1/3 true", "end call_a serial 2/3 false", "end call_b serial 3/3 false"]);
  });

  it("passes on the progress an MCP tool reports during the call", async () => {
    const executor = await startCalculator({ everything: true });
    const progress: string[] = [];
    const [answer] = await runToolCalls(executor, [{ id: "1", name: "everything__trigger-long-running-operation", arguments: { duration: 0.2, steps: 2 } }], {
      onProgress: (event) => {
        if (event.type === "progress") progress.push(`${event.progress.progress}/${event.progress.total}`);
      },
    });
    expect(answer!.isError).toBe(false);
    expect(progress).toEqual(["1/2", "2/2"]);
  });

  it("refuses wrong options with INVALID_OPTIONS naming each problem, before running anything", async () => {
    const untouched = { callTool: () => Promise.reject(new Error("no call may run")) };
    const call = [{ id: "1", name: "search", arguments: "{}" }];
    const wrong = { timeoutMs: "60s", signal: "stop", onProgress: true, mapping: {}, deadline: 5 } as unknown as RunToolCallsOptions;
    const refused = await runToolCalls(untouched, call, wrong).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "INVALID_OPTIONS", message: expect.stringMatching(/^Invalid tool-call options: /) });
    expect((refused as { details: { problems: string[] } }).details.problems).toEqual([
      'Unknown option "deadline" at options; expected one of mapping, signal, timeoutMs, onProgress',
      "Expected an AbortSignal, got string at options.signal",
      "Expected a whole number of milliseconds from 1 to 2147483647, got string at options.timeoutMs",
      "Expected a function, got boolean at options.onProgress",
      "Expected the mapping returned with the tools (by to*Tools), got object at options.mapping",
    ]);
    for (const timeoutMs of [0, 1.5, 2 ** 31]) await expect(runToolCalls(untouched, call, { timeoutMs })).rejects.toThrow(`got ${timeoutMs} at options.timeoutMs`);
    await expect(runOpenAiToolCalls(untouched, { tool_calls: [] }, null as unknown as RunToolCallsOptions)).rejects.toThrow("Invalid tool-call options: Expected an object, got null at options");
  });
});
