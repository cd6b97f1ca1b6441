/** createExecutor checks its options before touching the disk, and rejects a bad config at start-up. */
import { describe, expect, it } from "vitest";
import { createExecutor, isConfigError, isToolexecError, type ExecutorOptions } from "../../src/index.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { withoutRoot } from "./config-test-helpers.js";

/** The error createExecutor rejects with for `options` (as any value, to reach the runtime checks). */
async function executorError(options: unknown): Promise<unknown> {
  return createExecutor(options as ExecutorOptions).then(
    async (executor) => {
      await executor.close();
      return undefined;
    },
    (error: unknown) => error,
  );
}

async function optionsMessage(options: Record<string, unknown>): Promise<string> {
  const error = await executorError({ watch: false, logDir: false, toolsConfig: false, mcpConfig: false, ...options });
  expect(isToolexecError(error) && error.code).toBe("INVALID_OPTIONS");
  return (error as Error).message;
}

describe("createExecutor options", () => {
  it("rejects an unknown option", async () => {
    expect(await optionsMessage({ toolConfig: "tools.json" })).toMatchInlineSnapshot(`"Invalid createExecutor options: toolConfig: Unknown key "toolConfig" (did you mean "toolsConfig"?); expected one of: root, watch, toolsConfig, logDir, log, plugins, defaultTimeoutMs, maxConcurrency, maxQueue, reloadDebounceMs, strict, results, logger, onHumanInput, onElicitation, onSampling, onAuthorization, mcpConfig, codeExecution, toolSearch, webSearch, store, mcp"`);
  });

  it("rejects a string where a boolean belongs", async () => {
    expect(await optionsMessage({ watch: "no" })).toMatchInlineSnapshot(`"Invalid createExecutor options: watch: Expected a boolean, got "no""`);
  });

  it("rejects toolsConfig: true", async () => {
    expect(await optionsMessage({ toolsConfig: true })).toMatchInlineSnapshot(`"Invalid createExecutor options: toolsConfig: Expected a string or false, got true"`);
  });

  it("rejects an empty root", async () => {
    expect(await optionsMessage({ root: "" })).toMatchInlineSnapshot(`"Invalid createExecutor options: root: Expected a non-empty string, got """`);
  });

  it("rejects a bad number", async () => {
    expect(await optionsMessage({ maxConcurrency: 0 })).toMatchInlineSnapshot(`"Invalid createExecutor options: maxConcurrency: Expected a number greater than 0, got 0"`);
  });

  it("rejects defaultTimeoutMs above setTimeout's ceiling", async () => {
    expect(await optionsMessage({ defaultTimeoutMs: 2_147_483_648 })).toMatchInlineSnapshot(`"Invalid createExecutor options: defaultTimeoutMs: Expected a number of at most 2147483647, got 2147483648"`);
  });

  it("rejects a bad nested log option", async () => {
    expect(await optionsMessage({ log: { interval: "daily", maxFiles: -1 } })).toMatchInlineSnapshot(`"Invalid createExecutor options: log.interval: Expected an interval like "1d", "12h" or "1M": a whole number of s or m dividing 60, of h dividing 24, or of d or M; log.maxFiles: Expected a number greater than 0, got -1"`);
  });

  it("rejects an onHumanInput that is not a function", async () => {
    expect(await optionsMessage({ onHumanInput: "ask" })).toMatchInlineSnapshot(`"Invalid createExecutor options: onHumanInput: Expected a function, got "ask""`);
  });

  it("rejects a plugin without a name", async () => {
    expect(await optionsMessage({ plugins: [{ start: () => undefined }] })).toMatchInlineSnapshot(`"Invalid createExecutor options: plugins[0]: Missing required key "name" (expected a string)"`);
  });

  it("rejects a plugin whose name a built-in plugin uses", async () => {
    expect(await optionsMessage({ plugins: [{ name: "script", start: () => undefined }] })).toMatchInlineSnapshot(`"Plugin name "script" is already taken; give each plugin a unique name"`);
  });

  it("rejects options that are not an object", async () => {
    const error = await executorError("./my-project");
    expect(isToolexecError(error) && error.code).toBe("INVALID_OPTIONS");
    expect((error as Error).message).toMatchInlineSnapshot(`"Invalid createExecutor options: options: Expected an object, got "./my-project""`);
  });

  it("reports every bad option at once and keeps them in details", async () => {
    const error = await executorError({ watch: 1, maxQueue: -1, extra: true });
    expect(isToolexecError(error) && error.details).toMatchObject({ problems: expect.arrayContaining([expect.any(String)]) });
    expect((error as Error).message).toMatchInlineSnapshot(`"Invalid createExecutor options: watch: Expected a boolean, got 1; maxQueue: Expected a number of at least 0, got -1; extra: Unknown key "extra"; expected one of: root, watch, toolsConfig, logDir, log, plugins, defaultTimeoutMs, maxConcurrency, maxQueue, reloadDebounceMs, strict, results, logger, onHumanInput, onElicitation, onSampling, onAuthorization, mcpConfig, codeExecution, toolSearch, webSearch, store, mcp"`);
  });

  it("is not a ConfigError", async () => {
    const error = await executorError({ watch: "no" });
    expect(isConfigError(error)).toBe(false);
  });
});

describe("createExecutor config", () => {
  it("rejects with CONFIG_MISSING when tools.json is missing", async () => {
    const project = createTempProject();
    const error = await executorError({ root: project.root, watch: false, logDir: false });
    expect(isConfigError(error) && error.code).toBe("CONFIG_MISSING");
  });

  it("starts without tools.json when toolsConfig is false", async () => {
    const project = createTempProject();
    const executor = await createExecutor({ root: project.root, watch: false, logDir: false, toolsConfig: false });
    try {
      // The built-in read_result is always there, for results cut to the budget.
      expect((await executor.listTools()).map((tool) => tool.name)).toEqual(["read_result"]);
    } finally {
      await executor.close();
    }
  });

  it("rejects with CONFIG_INVALID and the located message", async () => {
    const project = createTempProject({ tools: { tools: [toolEntry("echo", "shell", "echo.sh", { timeoutMs: "5s" })] } });
    const error = await executorError({ root: project.root, watch: false, logDir: false });
    expect(isConfigError(error) && error.code).toBe("CONFIG_INVALID");
    expect(withoutRoot((error as Error).message, project.root)).toMatchInlineSnapshot(`"tools.json:11:20 tools[0].timeoutMs: Expected a number, got "5s""`);
  });

  it("starts with a missing script, exposing the warning", async () => {
    const warnings: string[] = [];
    const project = createTempProject({ tools: { tools: [toolEntry("later", "shell", "later.sh")] } });
    const logger = { debug() {}, info() {}, warn: (message: string) => warnings.push(message), error() {} };
    const executor = await createExecutor({ root: project.root, watch: false, logDir: false, logger });
    try {
      expect(executor.warnings).toMatchObject([{ path: "tools[0].script" }]);
      expect((await executor.listTools()).map((tool) => tool.name)).toEqual(["later", "read_result"]);
      expect(warnings).toMatchInlineSnapshot(`
        [
          "tools.json:7:17 tools[0].script: Script not found: tools/later.sh (calls will fail with SCRIPT_MISSING until it exists)",
        ]
      `);
    } finally {
      await executor.close();
    }
  });
});
