/**
 * Where code execution is switched on and configured: tools.json's `codeExecution` (strict,
 * errors located like the rest of the file), the executor option (each key wins over the file),
 * and hot reload (a changed `codeExecution` restarts only the code plugin).
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createExecutor, isToolexecError } from "../../src/index.js";
import { configErrorText } from "../config/config-test-helpers.js";
import { createTempProject } from "../helpers/temp-project.js";
import { SCRIPT_TOOLS, silentLogger, writeCodeProject } from "./code-test-helpers.js";

const listed = async (executor: Awaited<ReturnType<typeof createExecutor>>) => (await executor.listTools()).some((tool) => tool.name === "code_execution");

describe("tools.json codeExecution", () => {
  it("enables code execution for the project; the executor option overrides it key by key", async () => {
    const project = writeCodeProject({ codeExecution: { enabled: true, maxToolCalls: 2, poolSize: 1 } });
    const fromFile = await createExecutor({ root: project.root, watch: false, logDir: false, logger: silentLogger });
    const overridden = await createExecutor({ root: project.root, watch: false, logDir: false, logger: silentLogger, codeExecution: { maxToolCalls: 4 } });
    const switchedOff = await createExecutor({ root: project.root, watch: false, logDir: false, logger: silentLogger, codeExecution: { enabled: false } });
    try {
      expect(await listed(fromFile)).toBe(true);
      expect(await listed(switchedOff)).toBe(false);
      expect(await fromFile.executeCode({ code: "1", options: { max_tool_calls: 3 } })).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });
      expect(await overridden.executeCode({ code: "1", options: { max_tool_calls: 3 } })).toMatchObject({ ok: true, value: 1 });
    } finally {
      await Promise.all([fromFile.close(), overridden.close(), switchedOff.close()]);
      project.remove();
    }
  });

  it("is strict, and its errors name file, line, column and path", async () => {
    const project = createTempProject({ tools: { tools: [], codeExecution: { enabled: "yes", poolSize: 0, timeout: 5 } } });
    expect(await configErrorText(project)).toMatchInlineSnapshot(`
      "3 problems in tools.json:
        tools.json:4:16 codeExecution.enabled: Expected a boolean, got "yes"
        tools.json:5:17 codeExecution.poolSize: Expected a number greater than 0, got 0
        tools.json:6:5 codeExecution.timeout: Unknown key "timeout" (did you mean "timeoutMs"?); expected one of: enabled, timeoutMs, maxTimeoutMs, maxToolCalls, allowedServers, excludeTools, listOnlyCodeExecution, prewarm, poolSize, maxQueue, memoryLimitMb, maxResultBytes, maxLogBytes, maxCodeBytes, allowSavingTools, maxSavedToolDepth, maxDescriptionBytes"
    `);
  });

  it("rejects a maxTimeoutMs below timeoutMs, at its place", async () => {
    const project = createTempProject({ tools: { tools: [], codeExecution: { timeoutMs: 5000, maxTimeoutMs: 1000 } } });
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json:5:21 codeExecution.maxTimeoutMs: Expected maxTimeoutMs to be at least timeoutMs (5000), got 1000"`);
  });

  it("rejects bad executor options with INVALID_OPTIONS", async () => {
    const project = writeCodeProject();
    try {
      for (const codeExecution of [{ enabled: 1 }, { poolSize: -1 }, { timeoutMs: 10, maxTimeoutMs: 5 }, { memoryLimitMb: 8 }]) {
        const error = await createExecutor({ root: project.root, watch: false, logDir: false, codeExecution: codeExecution as never }).catch((thrown: unknown) => thrown);
        expect(isToolexecError(error) && error.code).toBe("INVALID_OPTIONS");
      }
    } finally {
      project.remove();
    }
  });
});

describe("hot reload", () => {
  it("turns code execution on and off with the file, restarting only the code plugin", async () => {
    const project = writeCodeProject();
    const executor = await createExecutor({ root: project.root, watch: false, logDir: false, logger: silentLogger });
    const write = (codeExecution: object) => writeFileSync(path.join(project.root, "tools.json"), JSON.stringify({ tools: SCRIPT_TOOLS, codeExecution }));
    try {
      expect(await listed(executor)).toBe(false);
      write({ enabled: true, poolSize: 1 });
      expect(await executor.reload()).toEqual({ ok: true, restarted: ["code"] });
      expect(await executor.executeCode({ code: "call_tool('echo', { a: 1 }).value" })).toMatchObject({ ok: true, value: { echo: { a: 1 } } });
      write({ enabled: true, poolSize: 1, maxToolCalls: 1 });
      expect(await executor.reload()).toEqual({ ok: true, restarted: ["code"] });
      expect(await executor.executeCode({ code: "[call_tool('echo', {}).ok, call_tool('echo', {}).ok]" })).toMatchObject({ ok: true, value: [true, false] });
      const describe = async () => (await executor.listTools()).find((tool) => tool.name === "code_execution")!.description;
      expect(await describe()).not.toContain("shout");
      const shout = { ...SCRIPT_TOOLS[3], name: "shout", description: "Shout the text back in capitals." };
      writeFileSync(path.join(project.root, "tools.json"), JSON.stringify({ tools: [...SCRIPT_TOOLS, shout], codeExecution: { enabled: true, poolSize: 1, maxToolCalls: 1 } }));
      expect(await executor.reload()).toEqual({ ok: true, restarted: ["script"] });
      expect(await describe()).toContain("shout");
      expect(await executor.executeCode({ code: "await tools.local.shout({ text: 'new tool' })" })).toMatchObject({ ok: true, value: "NEW TOOL" });
      write({ enabled: false });
      await executor.reload();
      expect(await listed(executor)).toBe(false);
    } finally {
      await executor.close();
      project.remove();
    }
  });
});
