/**
 * A host's mistakes never surface as a bare TypeError: `callTool` and `executeCode` answer bad
 * names, arguments and options with results (`INVALID_INPUT`, `INVALID_OPTIONS`), even when the
 * values are hostile (a Symbol name, throwing getters, Proxy traps); only use after `close()` throws,
 * and then a `ToolexecError` with `EXECUTOR_CLOSED`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isToolexecError } from "../../src/index.js";
import { openCodeExecutor, type CodeSetup } from "../code/code-test-helpers.js";

let setup: CodeSetup;
beforeAll(async () => {
  setup = await openCodeExecutor({ codeExecution: { poolSize: 1 } });
});
afterAll(async () => {
  await setup?.close();
});

const throwing = (message: string) => new Proxy({}, { ownKeys: () => { throw new Error(message); }, get: () => { throw new Error(message); }, getPrototypeOf: () => { throw new Error(message); } });

/** Each misuse as `label: CODE message`, or `label: THROWS name: message`. */
async function outcomes(cases: Array<[string, () => Promise<{ ok: boolean; error?: { code: string; message: string } }>]>) {
  const lines: string[] = [];
  for (const [label, run] of cases) {
    try {
      const result = await run();
      lines.push(`${label}: ${result.ok ? "ok" : `${result.error!.code} ${result.error!.message}`}`);
    } catch (error) {
      lines.push(`${label}: THROWS ${(error as Error).name}${isToolexecError(error) ? ` ${error.code}` : ""}: ${(error as Error).message}`);
    }
  }
  return lines;
}

describe("host misuse", () => {
  it("callTool answers every bad name, argument and option with a result", async () => {
    const call = setup.executor.callTool as (...args: unknown[]) => ReturnType<typeof setup.executor.callTool>;
    expect(
      await outcomes([
        ["name undefined", () => call(undefined, {})],
        ["name 123", () => call(123, {})],
        ["name Symbol", () => call(Symbol("echo"), {})],
        ["name whose toString throws", () => call({ toString: () => { throw new Error("boom"); } }, {})],
        ["name Object.create(null)", () => call(Object.create(null), {})],
        ["options null", () => call("echo", {}, null)],
        ["options { signal: {} }", () => call("echo", {}, { signal: {} })],
        ["options with a throwing getter", () => call("echo", {}, { get timeoutMs() { throw new Error("getter"); } })],
        ["options a throwing Proxy", () => call("echo", {}, throwing("options trap"))],
        ["arguments a throwing Proxy", () => call("echo", throwing("arguments trap"))],
      ]),
    ).toMatchInlineSnapshot(`
      [
        "name undefined: INVALID_INPUT Expected the tool name to be a string, got nothing",
        "name 123: INVALID_INPUT Expected the tool name to be a string, got 123",
        "name Symbol: INVALID_INPUT Expected the tool name to be a string, got Symbol(echo)",
        "name whose toString throws: INVALID_INPUT Expected the tool name to be a string, got an object",
        "name Object.create(null): INVALID_INPUT Expected the tool name to be a string, got an object",
        "options null: INVALID_OPTIONS Expected the call options to be an object like { signal, timeoutMs }, got null",
        "options { signal: {} }: INVALID_OPTIONS Expected signal to be an AbortSignal, got an object",
        "options with a throwing getter: INVALID_OPTIONS The call options could not be read: getter",
        "options a throwing Proxy: INVALID_OPTIONS The call options could not be read: options trap",
        "arguments a throwing Proxy: INVALID_INPUT The arguments of "echo" could not be read: arguments trap",
      ]
    `);
  });

  it("executeCode answers every bad request and option with a result", async () => {
    const execute = setup.executor.executeCode as (...args: unknown[]) => ReturnType<typeof setup.executor.executeCode>;
    expect(
      await outcomes([
        ["undefined", () => execute(undefined)],
        ["null", () => execute(null)],
        ['"code"', () => execute("code")],
        ["{ code: 1 }", () => execute({ code: 1 })],
        ["options { signal: {} }", () => execute({ code: "1" }, { signal: {} })],
        ["options null", () => execute({ code: "1" }, null)],
        ["options { bogus: 1 }", () => execute({ code: "1" }, { bogus: 1 })],
        ["a throwing Proxy", () => execute(throwing("request trap"))],
      ]),
    ).toMatchInlineSnapshot(`
      [
        "undefined: INVALID_INPUT Invalid arguments for "code_execution": arguments: missing required property "code"",
        "null: INVALID_INPUT Invalid arguments for "code_execution": arguments: missing required property "code"",
        ""code": INVALID_INPUT Expected the arguments of "code_execution" to be a plain object, got "code"",
        "{ code: 1 }: INVALID_INPUT Invalid arguments for "code_execution": code: must be string",
        "options { signal: {} }: INVALID_OPTIONS Expected signal to be an AbortSignal, got an object",
        "options null: INVALID_OPTIONS Expected the call options to be an object like { signal, timeoutMs }, got null",
        "options { bogus: 1 }: INVALID_OPTIONS Unknown call option "bogus"; expected signal, timeoutMs, onProgress, caller, parentExecutionId, bounded or toolCallId",
        "a throwing Proxy: INVALID_INPUT The arguments of "code_execution" could not be read: request trap",
      ]
    `);
  });

  it("after close(), every method throws EXECUTOR_CLOSED, whatever it was given", async () => {
    const closed = await openCodeExecutor({ codeExecution: { poolSize: 1 } });
    await closed.close();
    const call = closed.executor.callTool as (...args: unknown[]) => ReturnType<typeof setup.executor.callTool>;
    expect(
      await outcomes([
        ["callTool", () => call("echo", {})],
        ["callTool(Symbol)", () => call(Symbol("x"), {})],
        ["callTool(Object.create(null))", () => call(Object.create(null), {})],
        ["executeCode", () => closed.executor.executeCode({ code: "1" })],
        ["listTools", async () => ({ ok: (await closed.executor.listTools()).length > 0 })],
        ["reload", () => closed.executor.reload() as never],
      ]),
    ).toMatchInlineSnapshot(`
      [
        "callTool: THROWS ToolexecError EXECUTOR_CLOSED: Cannot call "echo": the executor is closed",
        "callTool(Symbol): THROWS ToolexecError EXECUTOR_CLOSED: Cannot call "Symbol(x)": the executor is closed",
        "callTool(Object.create(null)): THROWS ToolexecError EXECUTOR_CLOSED: Cannot call "an object": the executor is closed",
        "executeCode: THROWS ToolexecError EXECUTOR_CLOSED: Cannot call "code_execution": the executor is closed",
        "listTools: THROWS ToolexecError EXECUTOR_CLOSED: Cannot list tools: the executor is closed",
        "reload: THROWS ToolexecError EXECUTOR_CLOSED: Cannot reload: the executor is closed",
      ]
    `);
  });
});
