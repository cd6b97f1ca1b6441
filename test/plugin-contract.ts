/**
 * The shared contract suite every plugin passes (DESIGN §4): call `testPluginContract` from a
 * plugin's own test file before its specific tests.
 */
import { describe, expect, it } from "vitest";
import type { ExecutorPlugin, PluginContext, PluginInstance, PluginResult } from "../src/index.js";
import { PLUGIN_TOOL_NAME_PATTERN } from "../src/index.js";
import { checkSchema } from "../src/core/schema/schema-validator.js";
import { ToolexecError } from "../src/core/errors/toolexec-error.js";

export interface ContractSetup<Entry> {
  plugin: () => ExecutorPlugin<Entry>;
  entries: () => Entry[] | Promise<Entry[]>;
  context?: () => Partial<PluginContext>;
  /** A call that succeeds quickly. */
  quickCall: { name: string; arguments: Record<string, unknown> };
  /** A call that keeps running until its signal aborts. */
  slowCall: { name: string; arguments: Record<string, unknown> };
}

const silentLogger = { debug() {}, info() {}, warn() {}, error() {} };

function isWellFormed(result: PluginResult): boolean {
  if (result.ok) return "value" in result;
  return typeof result.error.code === "string" && typeof result.error.message === "string" && result.error.message.length > 0;
}

export function testPluginContract<Entry>(name: string, setup: ContractSetup<Entry>): void {
  describe(`plugin contract: ${name}`, () => {
    const start = async (): Promise<PluginInstance> => {
      const context: PluginContext = {
        root: process.cwd(),
        logger: silentLogger,
        callTool: async () => {
          throw new Error("not used by this plugin");
        },
        listTools: () => [],
        onToolsChanged: () => () => {},
        emit: () => {},
        ...(setup.context?.() as object),
      };
      return setup.plugin().start(await setup.entries(), context);
    };
    const call = (instance: PluginInstance, which: { name: string; arguments: Record<string, unknown> }, signal = new AbortController().signal) =>
      instance.callTool({ ...which, executionId: "contract-test" }, { signal, deadline: Date.now() + 10_000 });

    it("has a non-empty name and a start function", () => {
      const plugin = setup.plugin();
      expect(plugin.name).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(typeof plugin.start).toBe("function");
    });

    it("lists tools with valid names, descriptions and object input schemas", async () => {
      const instance = await start();
      try {
        const tools = instance.listTools();
        expect(tools.length).toBeGreaterThan(0);
        for (const tool of tools) {
          expect(tool.name).toMatch(PLUGIN_TOOL_NAME_PATTERN);
          expect(tool.description.trim().length).toBeGreaterThan(0);
          expect(tool.inputSchema.type).toBe("object");
          expect(checkSchema(tool.inputSchema)).toEqual([]);
          if (tool.outputSchema) expect(checkSchema(tool.outputSchema)).toEqual([]);
        }
        expect(new Set(tools.map((tool) => tool.name)).size).toBe(tools.length);
      } finally {
        await instance.close();
      }
    });

    it("answers a quick call with a well-formed success", async () => {
      const instance = await start();
      try {
        const result = await call(instance, setup.quickCall);
        expect(isWellFormed(result)).toBe(true);
        expect(result.ok).toBe(true);
      } finally {
        await instance.close();
      }
    });

    it("answers an unknown tool with a result, not a throw", async () => {
      const instance = await start();
      try {
        const result = await call(instance, { name: "no_such_tool_here", arguments: {} });
        expect(result.ok).toBe(false);
        expect(isWellFormed(result)).toBe(true);
      } finally {
        await instance.close();
      }
    });

    it("stops promptly when the signal aborts, reporting the abort's code", async () => {
      const instance = await start();
      try {
        const controller = new AbortController();
        const pending = call(instance, setup.slowCall, controller.signal);
        await new Promise((resolve) => setTimeout(resolve, 150));
        const abortedAt = Date.now();
        controller.abort(new ToolexecError("TIMEOUT", "deadline"));
        const result = await pending;
        expect(Date.now() - abortedAt).toBeLessThan(1_000);
        expect(result).toMatchObject({ ok: false, error: { code: "TIMEOUT" } });
      } finally {
        await instance.close();
      }
    });

    it("does not start work for a signal that is already aborted", async () => {
      const instance = await start();
      try {
        const controller = new AbortController();
        controller.abort(new ToolexecError("CANCELLED", "cancelled"));
        const result = await call(instance, setup.slowCall, controller.signal);
        expect(result).toMatchObject({ ok: false, error: { code: "CANCELLED" } });
      } finally {
        await instance.close();
      }
    });

    it("closes twice without error, ending calls under way", async () => {
      const instance = await start();
      const pending = call(instance, setup.slowCall);
      await new Promise((resolve) => setTimeout(resolve, 150));
      await instance.close();
      await instance.close();
      const result = await Promise.race([pending, new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 2_000))]);
      expect(result).not.toBe("hung");
      expect(isWellFormed(result as PluginResult)).toBe(true);
    });

    it("returns an unsubscribe function from onToolsChanged, if it has one", async () => {
      const instance = await start();
      try {
        if (instance.onToolsChanged) expect(typeof instance.onToolsChanged(() => {})).toBe("function");
      } finally {
        await instance.close();
      }
    });
  });
}
