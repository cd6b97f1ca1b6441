/**
 * A host plugin owning configuration (the `config` capability): a key of tools.json, checked by its
 * schema and resolver with errors located like the core's own, handed to the plugin as
 * `context.config`, and hot-reloaded (only the plugins whose section changed restart); or a file.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createExecutor, isConfigError, isToolexecError, type Executor, type ExecutorPlugin } from "../../src/index.js";
import { loadProjectConfig } from "../../src/config.js";
import { PLUGIN_CONTRACT_VERSION, type PluginConfigSection } from "../../src/plugin.js";
import { nextEvent } from "../helpers/next-event.js";
import { withoutRoot } from "../config/config-test-helpers.js";
import { createTempProject, toolEntry, type TempProject } from "../helpers/temp-project.js";

interface Greeting {
  greeting: string;
  punctuation: string;
}

const greeterSchema = z.strictObject({
  greeting: z.string().min(1).describe("How to greet"),
  punctuation: z.string().max(1).optional(),
});

/** What each start of the greeter got as its config, in order. */
let started: Greeting[] = [];

/** A host plugin that owns tools.json's `greeter` key and greets with it. */
function greeterPlugin(where: { key: string } | { file: string } = { key: "greeter" }): ExecutorPlugin<never, unknown, Greeting> {
  const config: PluginConfigSection<z.infer<typeof greeterSchema>, Greeting> = {
    ...where,
    schema: greeterSchema,
    resolve(written, context) {
      if (written === undefined) return { greeting: "Hello", punctuation: "!" };
      if (written.greeting.trim() !== written.greeting) context.report(["greeting"], "Expected a greeting without spaces around it");
      return { greeting: written.greeting, punctuation: written.punctuation ?? "!" };
    },
  };
  return {
    name: "greeter",
    contractVersion: PLUGIN_CONTRACT_VERSION,
    config,
    async start(_entries, context) {
      const settings = context.config!;
      started.push(settings);
      return {
        listTools: () => [{ name: "greet", description: "Greets someone", inputSchema: { type: "object", properties: { name: { type: "string" } } } }],
        callTool: async (call) => ({ ok: true, value: `${settings.greeting}, ${String(call.arguments.name)}${settings.punctuation}` }),
        close: async () => {},
      };
    },
  };
}

function project(greeter?: object): TempProject {
  const created = createTempProject({ tools: { tools: [toolEntry("echo", "shell", "echo.sh")], ...(greeter === undefined ? {} : { greeter }) } });
  created.useFixtures("echo.sh");
  started = [];
  return created;
}

async function startError(options: Parameters<typeof createExecutor>[0]): Promise<Error> {
  return createExecutor({ logDir: false, watch: false, ...options }).then(
    async (executor) => {
      await executor.close();
      throw new Error("expected createExecutor to reject");
    },
    (error: Error) => error,
  );
}

const greet = async (executor: Executor) => {
  const result = await executor.callTool("greet", { name: "Ada" });
  return result.ok ? result.value : result.error;
};

describe("a host plugin owning a key of tools.json", () => {
  it("gets its key resolved as context.config, and its defaults when the key is absent", async () => {
    const executor = await createExecutor({ root: project({ greeting: "Howdy" }).root, plugins: [greeterPlugin()], logDir: false, watch: false });
    expect(await greet(executor)).toBe("Howdy, Ada!");
    await executor.close();
    const plain = await createExecutor({ root: project().root, plugins: [greeterPlugin()], logDir: false, watch: false });
    expect(await greet(plain)).toBe("Hello, Ada!");
    await plain.close();
  });

  it("refuses a bad value at start-up with located errors (file:line:column path), its schema's and its resolver's", async () => {
    const schemaError = await startError({ root: project({ greeting: 5, punctuation: "!!", volume: 3 }).root, plugins: [greeterPlugin()] });
    expect(isConfigError(schemaError)).toBe(true);
    expect(schemaError.message).toMatchInlineSnapshot(`
      "3 problems in tools.json:
        tools.json:14:17 greeter.greeting: Expected a string, got 5
        tools.json:15:20 greeter.punctuation: Expected at most 1 characters, got "!!"
        tools.json:16:5 greeter.volume: Unknown key "volume"; expected one of: greeting, punctuation"
    `);
    const resolverError = await startError({ root: project({ greeting: " Hi " }).root, plugins: [greeterPlugin()] });
    expect(resolverError.message).toMatchInlineSnapshot(`"tools.json:14:17 greeter.greeting: Expected a greeting without spaces around it"`);
  });

  it("leaves the key an unknown key when no plugin claims it", async () => {
    const created = project({ greeting: "Howdy" });
    const error = await startError({ root: created.root });
    expect(withoutRoot(error.message, created.root)).toMatchInlineSnapshot(`"tools.json:13:3 greeter: Unknown key "greeter"; expected one of: $schema, defaults, tools, python, pythonModules, toolSearch, codeExecution, webSearch, profiles, identity"`);
  });

  it("is read by loadProjectConfig when passed in plugins, filed under the plugin's name", async () => {
    const created = project({ greeting: "Howdy" });
    const config = await loadProjectConfig({ root: created.root, plugins: [greeterPlugin()] });
    expect(config.sections.greeter).toEqual({ greeting: "Howdy", punctuation: "!" });
    const clash = await loadProjectConfig({ root: created.root, plugins: [{ ...greeterPlugin(), name: "mcp" }] }).catch((error: Error) => error);
    expect((clash as Error).message).toBe('Plugin name "mcp" is already taken; give each plugin a unique name');
    expect(started).toEqual([]);
  });

  it("keeps its key valid for registry writes, which check tools.json as the loader does", async () => {
    const created = project({ greeting: "Howdy" });
    const executor = await createExecutor({ root: created.root, plugins: [greeterPlugin()], logDir: false, watch: false });
    try {
      await executor.registerTool(toolEntry("echo2", "shell", "echo.sh"));
      expect((await executor.listTools()).map((tool) => tool.name)).toEqual(["echo", "echo2", "greet", "read_result"]);
    } finally {
      await executor.close();
    }
  });

  it("may not claim a key another plugin or the core owns", async () => {
    for (const key of ["webSearch", "tools"]) {
      const error = await startError({ root: project().root, plugins: [greeterPlugin({ key })] });
      expect(isToolexecError(error) && error.code).toBe("INVALID_OPTIONS");
      expect(error.message).toContain(`"${key}"`);
    }
  });

  it("hot-reloads a good new value into the plugin (only it restarts) and keeps it over a bad one", async () => {
    const created = project({ greeting: "Howdy" });
    const executor = await createExecutor({ root: created.root, plugins: [greeterPlugin()], logDir: false, reloadDebounceMs: 20 });
    try {
      expect(await greet(executor)).toBe("Howdy, Ada!");
      const reloaded = nextEvent(executor, "config:reloaded");
      created.write("tools.json", { tools: [toolEntry("echo", "shell", "echo.sh")], greeter: { greeting: "Good day", punctuation: "." } });
      expect((await reloaded).restarted).toEqual(["greeter"]);
      expect(await greet(executor)).toBe("Good day, Ada.");
      expect(started).toEqual([{ greeting: "Howdy", punctuation: "!" }, { greeting: "Good day", punctuation: "." }]);

      const refused = nextEvent(executor, "config:error");
      created.write("tools.json", { tools: [toolEntry("echo", "shell", "echo.sh")], greeter: { greeting: "" } });
      expect((await refused).message).toContain("tools.json:14:17 greeter.greeting: Expected a non-empty string");
      expect(await greet(executor)).toBe("Good day, Ada.");
    } finally {
      await executor.close();
    }
  });
});

describe("a host plugin owning a file", () => {
  it("reads it (CONFIG_MISSING with its hint when absent) and watches it", async () => {
    const created = project();
    const missing = await startError({ root: created.root, plugins: [greeterPlugin({ file: "greeter.json" })] });
    expect(isConfigError(missing) && missing.code).toBe("CONFIG_MISSING");
    created.write("greeter.json", { greeting: "Hi" });
    const executor = await createExecutor({ root: created.root, plugins: [greeterPlugin({ file: "greeter.json" })], logDir: false, reloadDebounceMs: 20 });
    try {
      expect(await greet(executor)).toBe("Hi, Ada!");
      expect(executor.configStatus().files).toContain(created.path("greeter.json"));
      const reloaded = nextEvent(executor, "config:reloaded");
      created.write("greeter.json", { greeting: "Hey" });
      expect((await reloaded).restarted).toEqual(["greeter"]);
      expect(await greet(executor)).toBe("Hey, Ada!");
    } finally {
      await executor.close();
    }
  });
});
