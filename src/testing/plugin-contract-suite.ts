/**
 * The shared contract suite every plugin passes (DESIGN §4), shipped so third-party plugins run
 * the same checks as the built-in ones: call `testPluginContract` from a vitest test file.
 */
import { describe, expect, it } from "vitest";
import { loadSectionSchemas } from "../core/config/lazy-section-schema.js";
import { ToolexecError } from "../core/errors/toolexec-error.js";
import { MIN_PLUGIN_CONTRACT_VERSION, PLUGIN_CONTRACT_VERSION, type CallToolOptions, type ExecutionRecord, type ExecutorPlugin, type PluginContext, type PluginInstance, type PluginResult } from "../core/plugin-contract.js";
import type { ToolResult } from "../core/tool-result.js";
import { checkSchema } from "../core/schema/schema-validator.js";
import { PLUGIN_TOOL_NAME_PATTERN } from "../core/tool-names.js";

/** What the suite lets a setup wait on to know that the slow call's work has begun. */
export interface StartSignals {
  /** Resolves at the call's first `onProgress` report. */
  progress: Promise<void>;
  /** Resolves when the plugin emits `event` through its context. */
  emitted(event: string): Promise<void>;
}

export interface ContractSetup<Entry> {
  plugin: () => ExecutorPlugin<Entry>;
  entries: () => Entry[] | Promise<Entry[]>;
  /** Overrides of the context the suite starts the plugin with. */
  context?: () => Partial<PluginContext>;
  /** A call that succeeds quickly. */
  quickCall: { name: string; arguments: Record<string, unknown> };
  /**
   * A call that keeps running until its signal aborts, and a real signal that its work has begun
   * (a marker file its script writes, its first progress report, an event): never a sleep.
   */
  slowCall: { name: string; arguments: Record<string, unknown>; started(signals: StartSignals): Promise<void> };
  /** Required when the plugin has `onToolsChanged`: make its tool list change (e.g. edit what it serves). */
  changeTools?(instance: PluginInstance): Promise<void>;
  /**
   * For a plugin whose calls call other tools (`options.callTool`): what such a sub-call answers.
   * `signal` is the sub-call's: the calling call's own unless the plugin gave one, as the executor
   * cancels a sub-call with its parent. Default: a sub-call throws (the plugin makes none).
   */
  callTool?(name: string, args: unknown, signal: AbortSignal): Promise<ToolResult>;
}

const silentLogger = { debug() {}, info() {}, warn() {}, error() {} };

function isWellFormed(result: PluginResult): boolean {
  if (result.ok) return "value" in result;
  return typeof result.error.code === "string" && typeof result.error.message === "string" && result.error.message.length > 0;
}

/** A promise and the function that settles it. */
function signalled(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((settle) => (resolve = settle));
  return { promise, resolve };
}

/**
 * Register the contract tests for one plugin.
 *
 * @example
 * import { testPluginContract } from "toolexec/testing";
 * testPluginContract("clock", {
 *   plugin: clockPlugin,
 *   entries: () => [],
 *   quickCall: { name: "now", arguments: {} },
 *   slowCall: { name: "sleep", arguments: {}, started: () => sleepStarted },
 * });
 */
export function testPluginContract<Entry>(name: string, setup: ContractSetup<Entry>): void {
  describe(`plugin contract: ${name}`, () => {
    const emitted = new Map<string, { promise: Promise<void>; resolve(): void }>();
    const seen = (event: string) => {
      let entry = emitted.get(event);
      if (!entry) emitted.set(event, (entry = signalled()));
      return entry;
    };
    const start = async (): Promise<PluginInstance> => {
      emitted.clear();
      const entries = await setup.entries();
      const context: PluginContext = {
        root: process.cwd(),
        logger: silentLogger,
        callTool: async () => {
          throw new Error("not used by this plugin");
        },
        listTools: () => [],
        onToolsChanged: () => () => {},
        emit: (event) => seen(event).resolve(),
        ...(setup.context?.() as object),
      };
      return setup.plugin().start(entries, context);
    };
    /** Run `use` on a started instance, and close it after, whatever happens. */
    const withInstance = async (use: (instance: PluginInstance) => Promise<unknown>) => {
      const instance = await start();
      try {
        await use(instance);
      } finally {
        await instance.close();
      }
    };
    const call = (instance: PluginInstance, which: { name: string; arguments: Record<string, unknown> }, signal = new AbortController().signal) => {
      const progress = signalled();
      const pending = instance.callTool(
        { name: which.name, arguments: which.arguments, executionId: "contract-test" },
        {
          signal,
          deadline: Date.now() + 10_000,
          onProgress: () => progress.resolve(),
          callTool: async (name: string, args?: unknown, options?: CallToolOptions) => {
            if (!setup.callTool) throw new Error("not used by this plugin");
            return setup.callTool(name, args, options?.signal ?? signal);
          },
        },
      );
      return { pending, started: () => setup.slowCall.started({ progress: progress.promise, emitted: (event) => seen(event).promise }) };
    };

    it("has a non-empty name and a start function", () => {
      const plugin = setup.plugin();
      expect(plugin.name).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(typeof plugin.start).toBe("function");
    });

    it("states a contract version this toolexec supports, or none (version 1)", () => {
      const version = setup.plugin().contractVersion ?? 1;
      expect(Number.isInteger(version)).toBe(true);
      expect(version).toBeGreaterThanOrEqual(MIN_PLUGIN_CONTRACT_VERSION);
      expect(version).toBeLessThanOrEqual(PLUGIN_CONTRACT_VERSION);
    });

    it("declares its configuration, if any, with a key or a file and a zod schema", async () => {
      const section = setup.plugin().config;
      if (section === undefined) return;
      // A built-in plugin's schema loads on demand; a host plugin's is there already.
      await loadSectionSchemas([{ section }]);
      expect("key" in section !== "file" in section, "config names either a tools.json key or a file").toBe(true);
      expect(typeof section.schema.safeParse).toBe("function");
      // Nothing written (the key or file absent) resolves without a problem, to plain JSON the executor can compare.
      if (section.resolve) {
        const reported: string[] = [];
        const context = { root: process.cwd(), file: "tools.json", environment: {}, report: (_path: unknown, message: string) => void reported.push(message), check: () => undefined };
        const value = section.resolve(undefined, context);
        expect(reported).toEqual([]);
        expect(() => JSON.stringify(value)).not.toThrow();
      }
    });

    it("lists tools with valid names, descriptions and object input schemas", () =>
      withInstance(async (instance) => {
        const tools = instance.listTools();
        expect(tools.length).toBeGreaterThan(0);
        for (const tool of tools) {
          expect(tool.name).toMatch(PLUGIN_TOOL_NAME_PATTERN);
          expect(tool.description.trim().length).toBeGreaterThan(0);
          expect(tool.inputSchema.type).toBe("object");
          expect(checkSchema(tool.inputSchema)).toEqual([]);
          if (tool.outputSchema) expect(checkSchema(tool.outputSchema)).toEqual([]);
          if (tool.server) expect([typeof tool.server.name, typeof tool.server.tool]).toEqual(["string", "string"]);
        }
        expect(new Set(tools.map((tool) => tool.name)).size).toBe(tools.length);
      }));

    it("answers a quick call with a well-formed success", () =>
      withInstance(async (instance) => {
        const result = await call(instance, setup.quickCall).pending;
        expect(isWellFormed(result)).toBe(true);
        expect(result.ok).toBe(true);
      }));

    it("answers an unknown tool with a result, not a throw", () =>
      withInstance(async (instance) => {
        const result = await call(instance, { name: "no_such_tool_here", arguments: {} }).pending;
        expect(result.ok).toBe(false);
        expect(isWellFormed(result)).toBe(true);
      }));

    it("stops promptly when the signal aborts mid-work, reporting the abort's code", () =>
      withInstance(async (instance) => {
        const controller = new AbortController();
        const { pending, started } = call(instance, setup.slowCall, controller.signal);
        await started();
        const abortedAt = Date.now();
        controller.abort(new ToolexecError("TIMEOUT", "deadline"));
        const result = await pending;
        expect(Date.now() - abortedAt).toBeLessThan(1_000);
        expect(result).toMatchObject({ ok: false, error: { code: "TIMEOUT" } });
      }));

    it("does not start work for a signal that is already aborted", () =>
      withInstance(async (instance) => {
        const controller = new AbortController();
        controller.abort(new ToolexecError("CANCELLED", "cancelled"));
        const result = await call(instance, setup.slowCall, controller.signal).pending;
        expect(result).toMatchObject({ ok: false, error: { code: "CANCELLED" } });
      }));

    it("closes twice without error, ending calls under way", async () => {
      const instance = await start();
      const { pending, started } = call(instance, setup.slowCall);
      await started();
      await instance.close();
      await instance.close();
      const result = await Promise.race([pending, new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 2_000))]);
      expect(result).not.toBe("hung");
      expect(isWellFormed(result as PluginResult)).toBe(true);
    });

    it("tells onToolsChanged listeners of a change, and no longer after they unsubscribe", () =>
      withInstance(async (instance) => {
        if (!instance.onToolsChanged) return expect(setup.changeTools, "changeTools is given only for plugins with onToolsChanged").toBeUndefined();
        expect(setup.changeTools, "a plugin with onToolsChanged needs changeTools in its contract setup").toBeTypeOf("function");
        const heard: string[] = [];
        const first = signalled();
        const unsubscribe = instance.onToolsChanged(() => {
          heard.push("change");
          first.resolve();
        });
        expect(unsubscribe).toBeTypeOf("function");
        await setup.changeTools!(instance);
        await first.promise;
        const count = heard.length;
        unsubscribe();
        await setup.changeTools!(instance);
        expect(heard.length).toBe(count);
      }));

    it("keeps its optional capabilities well-formed", () =>
      withInstance(async (instance) => {
        const tools = instance.listTools();
        if (instance.isListed) for (const tool of tools) expect(instance.isListed(tool)).toBeTypeOf("boolean");
        if (instance.secrets) for (const secret of instance.secrets()) expect(secret).toBeTypeOf("string");
        // It explains missing names only: a tool it lists is not missing.
        if (instance.explainMissingTool) for (const tool of tools) expect(instance.explainMissingTool(tool.name)).toBeUndefined();
        // A tool it lists is available: the unavailable ones are those it cannot serve, with a code and message.
        if (instance.unavailableTools) {
          for (const unavailable of instance.unavailableTools()) {
            expect(tools.map((tool) => tool.name)).not.toContain(unavailable.name);
            expect(unavailable.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
          }
        }
        // Nor does it resolve them: resolving is for names it does not list.
        if (instance.resolveMissingTool) for (const tool of tools) expect(await instance.resolveMissingTool(tool.name, { signal: AbortSignal.timeout(5_000) })).toBe(false);
        if (instance.shapeLogRecord) {
          const record: ExecutionRecord = { time: new Date().toISOString(), executionId: "contract-test", tool: tools[0]!.name, plugin: name, arguments: {}, ok: true, value: null, durationMs: 1 };
          const shaped = instance.shapeLogRecord(record);
          expect(shaped).toMatchObject({ executionId: "contract-test", tool: tools[0]!.name });
          expect(JSON.stringify(shaped)).toBeTypeOf("string");
        }
      }));
  });
}
