/** Tools discovered in Python files listed in `pythonModules`: @tool marks, FastMCP files unchanged, clashes, edits. */
import { readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor, isConfigError } from "../../src/index.js";
import { loadProjectConfig } from "../../src/config.js";
import type { PluginInstance } from "../../src/core/plugin-contract.js";
import { pythonPlugin } from "../../src/plugins/python/python-plugin.js";
import type { TempProject } from "../helpers/temp-project.js";
import { createMemoryLogger, discoveringProject, startExecutor, textTools } from "./python-test-helpers.js";

async function summaries(executor: Awaited<ReturnType<typeof startExecutor>>) {
  return (await executor.listTools()).map((tool) => ({
    name: tool.name,
    description: tool.description,
    properties: Object.keys((tool.inputSchema as { properties?: object }).properties ?? {}),
  }));
}

const instances: PluginInstance[] = [];
afterEach(async () => {
  await Promise.all(instances.splice(0).map((instance) => instance.close()));
});

/** The plugin alone, to see what the executor keeps to itself (a tool's parallel flag and timeout). */
async function startPlugin(project: TempProject): Promise<PluginInstance> {
  const config = await loadProjectConfig({ root: project.root, mcpConfig: false });
  const context = { root: project.root, logger: createMemoryLogger(), callTool: () => Promise.reject(new Error("unused")), listTools: () => [], onToolsChanged: () => () => {}, emit: () => {} };
  const instance = await pythonPlugin({ maxWorkers: 2 }).start(config.entries.python, { ...context, config: config.sections.python } as never);
  instances.push(instance);
  return instance;
}

describe("@tool from toolexec's helper module", () => {
  it("makes each marked function a tool, with its metadata, and leaves unmarked functions out", async () => {
    const executor = await startExecutor(discoveringProject(["marked_tools.py"]));
    expect(await summaries(executor)).toMatchInlineSnapshot(`
      [
        {
          "description": "Greet someone by name.",
          "name": "greet",
          "properties": [
            "name",
            "excited",
          ],
        },
        {
          "description": "The process id of the worker that runs it.",
          "name": "pid_of_worker",
          "properties": [],
        },
        {
          "description": "The value of an environment variable in the worker, or null.",
          "name": "read_variable",
          "properties": [
            "name",
          ],
        },
        {
          "description": "Read more of a tool result that was cut short: its last line names a handle such as r_… . Give offset (characters) to read the next page of the text, or path (a JSON path such as $.rows) to read one part of a structured result; an array at path is read by items from offset. Answers { text | value, offset, nextOffset, total }; nextOffset is null at the end.",
          "name": "read_result",
          "properties": [
            "handle",
            "offset",
            "limit",
            "path",
          ],
        },
      ]
    `);
    expect(await executor.callTool("greet", { name: "ada", excited: true })).toMatchObject({ ok: true, value: "Hello, ADA!" });
    expect(await executor.callTool("pid_of_worker", {})).toMatchObject({ ok: true, value: expect.any(Number) });
    expect(await executor.callTool("shout", { text: "x" })).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND" } });
  });

  it("takes parallel and timeout (seconds) from the mark, and the module's settings otherwise", async () => {
    const instance = await startPlugin(discoveringProject([{ path: "marked_tools.py", timeoutMs: 9000 }]));
    expect(instance.listTools().map(({ name, parallel, timeoutMs }) => ({ name, parallel, timeoutMs }))).toEqual([
      { name: "greet", parallel: false, timeoutMs: 9000 },
      { name: "pid_of_worker", parallel: true, timeoutMs: 2500 },
      { name: "read_variable", parallel: false, timeoutMs: 9000 },
    ]);
  });

  it("discovers every .py file of a listed folder, except names starting with _ or .", async () => {
    const project = discoveringProject(["more/"]);
    project.write("tools/more/first.py", "from toolexec import tool\n\n@tool\ndef one() -> int:\n    return 1\n");
    project.write("tools/more/second.py", "from toolexec import tool\n\n@tool()\ndef two() -> int:\n    return 2\n");
    project.write("tools/more/_private.py", "raise SystemExit('never imported')\n");
    const executor = await startExecutor(project);
    expect((await summaries(executor)).map((tool) => tool.name)).toEqual(["one", "two", "read_result"]);
    expect(await executor.callTool("two", {})).toMatchObject({ ok: true, value: 2 });
  });
});

describe("a file written for FastMCP, unchanged", () => {
  it("serves its @mcp.tool functions, without the Context parameter in the schema", async () => {
    const executor = await startExecutor(discoveringProject(["fastmcp_server.py", "sdk_fastmcp_server.py"]));
    expect(await summaries(executor)).toMatchInlineSnapshot(`
      [
        {
          "description": "Add two numbers.",
          "name": "add",
          "properties": [
            "a",
            "b",
          ],
        },
        {
          "description": "Multiply two numbers.",
          "name": "multiply",
          "properties": [
            "a",
            "b",
          ],
        },
        {
          "description": "Welcome a user, logging through the context.",
          "name": "welcome",
          "properties": [
            "user",
          ],
        },
        {
          "description": "Reverse a text.",
          "name": "reverse",
          "properties": [
            "text",
          ],
        },
        {
          "description": "Look a key up; \`secret\` is the server's own, never the caller's.",
          "name": "lookup",
          "properties": [
            "key",
          ],
        },
        {
          "description": "Upper-case a text.",
          "name": "upper",
          "properties": [
            "text",
          ],
        },
        {
          "description": "Read more of a tool result that was cut short: its last line names a handle such as r_… . Give offset (characters) to read the next page of the text, or path (a JSON path such as $.rows) to read one part of a structured result; an array at path is read by items from offset. Answers { text | value, offset, nextOffset, total }; nextOffset is null at the end.",
          "name": "read_result",
          "properties": [
            "handle",
            "offset",
            "limit",
            "path",
          ],
        },
      ]
    `);
    const annotations = new Map((await executor.listTools()).map((tool) => [tool.name, tool.annotations]));
    expect(annotations.get("reverse")).toEqual({ title: "Reverse text" });
    expect(annotations.get("lookup")).toEqual({ readOnlyHint: true });
    expect(await executor.callTool("lookup", { key: "k" })).toMatchObject({ ok: true, value: "k:hidden" });
    expect(await executor.callTool("lookup", { key: "k", secret: "mine" })).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });
    expect(await executor.callTool("upper", { text: "abc" })).toMatchObject({ ok: true, value: "ABC" });
    expect(await executor.callTool("add", { a: 2, b: 3 })).toMatchObject({ ok: true, value: 5 });
    expect(await executor.callTool("multiply", { a: 1.5, b: 4 })).toMatchObject({ ok: true, value: 6 });
    expect(await executor.callTool("reverse", { text: "abc" })).toMatchObject({ ok: true, value: "cba" });
  });

  it("names the resources and prompts it declares as not served, rather than dropping them silently", async () => {
    const logger = createMemoryLogger();
    const executor = await startExecutor(discoveringProject(["fastmcp_server.py"]), { logger });
    expect((await executor.listTools()).map((tool) => tool.name)).not.toContain("version");
    expect(logger.warnings).toEqual([
      'tools/fastmcp_server.py:26: resource "config://version" is not served: toolexec\'s Python workers serve a file\'s tools only; to serve its resources and prompts, declare the file in mcp.json as "python": { "server": "tools/fastmcp_server.py", "requirements": [...] } (docs/python-tools.md)',
      'tools/fastmcp_server.py:31: prompt "ask" is not served: toolexec\'s Python workers serve a file\'s tools only; to serve its resources and prompts, declare the file in mcp.json as "python": { "server": "tools/fastmcp_server.py", "requirements": [...] } (docs/python-tools.md)',
    ]);
  });

  it("gives a Context parameter a context whose log lines reach the host's logger and whose request id is the execution id", async () => {
    const logged: Array<[string, Record<string, unknown> | undefined]> = [];
    const logger = { ...createMemoryLogger(), info: (message: string, fields?: Record<string, unknown>) => void logged.push([message, fields]) };
    const executor = await startExecutor(discoveringProject(["fastmcp_server.py"]), { logger });
    const result = await executor.callTool("welcome", { user: "Lin" });
    expect(result).toMatchObject({ ok: true, value: `welcome Lin (${result.executionId})` });
    expect(logged).toContainEqual(["welcome: welcoming Lin", { tool: "welcome", executionId: result.executionId, level: "info" }]);
  });
});

describe("problems with discovered modules", () => {
  it("refuses a name clash at start, naming both sources", async () => {
    const project = discoveringProject(["clashing_tools.py"], textTools("word_count"));
    const error = await createExecutor({ root: project.root, watch: false, logDir: false, logger: createMemoryLogger() }).then(
      (executor) => executor.close().then(() => undefined),
      (thrown: unknown) => thrown,
    );
    expect(isConfigError(error)).toBe(true);
    expect((error as Error).message).toMatchInlineSnapshot(`"tools/clashing_tools.py:4:1: Tool name "word_count" is defined by both tools.json (function "text_tools.py:word_count") and tools/clashing_tools.py:4 (a marked function); rename one of them"`);
  });

  it("refuses two modules marking the same name", async () => {
    const project = discoveringProject(["clashing_tools.py", "again.py"]);
    project.write("tools/again.py", "from toolexec import tool\n\n\n@tool(name='word_count')\ndef count(text: str) -> int:\n    return 0\n");
    await expect(createExecutor({ root: project.root, watch: false, logDir: false, logger: createMemoryLogger() })).rejects.toThrowErrorMatchingInlineSnapshot(
      `[ConfigError: tools/again.py:4:1: Tool name "word_count" is defined by both tools/clashing_tools.py:4 (a marked function) and tools/again.py:4 (a marked function); rename one of them]`,
    );
  });

  it("leaves out a module that fails to import, naming its file and line, and keeps the others", async () => {
    const logger = createMemoryLogger();
    const executor = await startExecutor(discoveringProject(["broken_import.py", "sdk_fastmcp_server.py"]), { logger });
    expect((await summaries(executor)).map((tool) => tool.name)).toEqual(["reverse", "lookup", "upper", "read_result"]);
    expect(logger.warnings).toMatchInlineSnapshot(`
      [
        "Python module tools/broken_import.py left out: tools/broken_import.py:3: ModuleNotFoundError: No module named 'a_module_that_does_not_exist'",
      ]
    `);
  });
});

describe("an edited discovered module", () => {
  it("is read again on hot reload, adding its new tools", async () => {
    const project = discoveringProject(["marked_tools.py"]);
    const executor = await startExecutor(project, { watch: true });
    expect((await summaries(executor)).map((tool) => tool.name)).not.toContain("farewell");
    const module = project.path("tools/marked_tools.py");
    const added = new Promise<void>((resolve) => {
      executor.on("tools:changed", () => void executor.listTools().then((tools) => tools.some((tool) => tool.name === "farewell") && resolve()));
    });
    writeFileSync(module, `${readFileSync(module, "utf8")}\n\n@tool\ndef farewell(name: str) -> str:\n    """Say goodbye."""\n    return "bye " + name\n`);
    await added;
    expect(await executor.callTool("farewell", { name: "Bo" })).toMatchObject({ ok: true, value: "bye Bo" });
  });
});
