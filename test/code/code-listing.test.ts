/**
 * `listOnlyCodeExecution`: the model is shown only `code_execution` and the excluded tools, while
 * the host can still call every tool and code can still call every tool it is not denied.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor } from "../../src/index.js";
import { openCodeExecutor, silentLogger, writeCodeProject, type CodeSetup } from "./code-test-helpers.js";

const names = async (setup: { executor: CodeSetup["executor"] }) => (await setup.executor.listTools()).map((tool) => tool.name).sort();

describe("codeExecution.listOnlyCodeExecution", () => {
  let setup: CodeSetup;
  beforeAll(async () => {
    setup = await openCodeExecutor({ codeExecution: { listOnlyCodeExecution: true, excludeTools: ["fail"] } });
  });
  afterAll(() => setup.close());

  it("lists only code_execution and the excluded tools", async () => {
    expect(await names(setup)).toEqual(["code_execution", "fail"]);
  });

  it("still describes the hidden tools to the model inside code_execution's description", async () => {
    const [tool] = (await setup.executor.listTools()).filter((candidate) => candidate.name === "code_execution");
    expect(tool?.description).toContain("upper");
  });

  it("is a listing policy, not access control: the host still calls a hidden tool", async () => {
    expect(await setup.executor.callTool("echo", { a: 1 })).toMatchObject({ ok: true, value: { echo: { a: 1 } } });
  });

  it("lets code call every tool that is not excluded", async () => {
    const result = await setup.executor.executeCode({ code: "[call_tool('local', 'echo', { a: 2 }).value, call_tool('local', 'fail', {}).error.code]" });
    expect(result).toMatchObject({ ok: true, value: [{ echo: { a: 2 } }, "TOOL_NOT_FOUND"] });
  });
});

describe("listOnlyCodeExecution in tools.json", () => {
  it("applies from the project's config; the executor option can switch it off; without code execution it does nothing", async () => {
    const project = writeCodeProject({ codeExecution: { enabled: true, poolSize: 1, listOnlyCodeExecution: true } });
    const open = (codeExecution: Record<string, unknown>) => createExecutor({ root: project.root, watch: false, logDir: false, logger: silentLogger, codeExecution });
    const [fromFile, overridden, disabled] = await Promise.all([open({}), open({ listOnlyCodeExecution: false }), open({ enabled: false })]);
    try {
      expect(await names({ executor: fromFile })).toEqual(["code_execution"]);
      expect(await names({ executor: overridden })).toEqual(["code_execution", "delete_saved_tool", "echo", "fail", "list_saved_tools", "read_result", "save_tool", "show_saved_tool", "slow", "upper"]);
      expect(await names({ executor: disabled })).toEqual(["echo", "fail", "read_result", "slow", "upper"]);
    } finally {
      await Promise.all([fromFile.close(), overridden.close(), disabled.close()]);
      project.remove();
    }
  });
});
