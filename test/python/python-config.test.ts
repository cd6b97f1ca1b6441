/** tools.json entries naming a Python function: accepted shapes and precise errors. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadProjectConfig } from "../../src/config.js";
import { createTempProject } from "../helpers/temp-project.js";
import { configErrorText } from "../config/config-test-helpers.js";

function projectWith(tools: object[]) {
  const project = createTempProject({ tools: { tools } });
  project.write("tools/text_tools.py", "def word_count(text: str) -> int:\n    return len(text.split())\n");
  return project;
}

describe("function entries in tools.json", () => {
  it("resolve to python entries with the module's absolute path and the function's name", async () => {
    const project = projectWith([{ name: "word_count", function: "text_tools.py:word_count", timeoutMs: 5000 }]);
    const config = await loadProjectConfig({ root: project.root });
    expect(config.entries.script).toEqual([]);
    expect(config.entries.python).toMatchObject([
      { name: "word_count", module: project.path("tools/text_tools.py"), modulePath: "text_tools.py", function: "word_count", interpreter: "python3", timeoutMs: 5000, parallel: false },
    ]);
  });

  it("refuse both a script and a function, and script-only keys, one message each", async () => {
    const project = projectWith([{ name: "both", function: "text_tools.py:word_count", script: "x.py", runtime: "python", args: ["-v"] }]);
    expect(await configErrorText(project)).toMatchInlineSnapshot(`
      "3 problems in tools.json:
        tools.json:6:17 tools[0].script: Expected either "script" or "function", got both: a function tool names a Python function ("file.py:name") and has no script
        tools.json:7:18 tools[0].runtime: "runtime" applies to script tools only; a function tool runs on a warm Python worker (remove "runtime")
        tools.json:8:15 tools[0].args: "args" applies to script tools only; a function tool runs on a warm Python worker (remove "args")"
    `);
  });

  it("name each key a script entry lacks, and suggest a function", async () => {
    const project = projectWith([{ name: "neither" }]);
    expect(await configErrorText(project)).toMatchInlineSnapshot(`
      "4 problems in tools.json:
        tools.json:3:5 tools[0]: Missing required key "description" (expected a string)
        tools.json:3:5 tools[0]: Missing required key "runtime" (expected one of "python", "shell", "node")
        tools.json:3:5 tools[0]: Missing required key "script" (expected a string; or name a Python function with "function": "file.py:name")
        tools.json:3:5 tools[0]: Missing required key "inputSchema" (expected an object)"
    `);
  });

  it("refuse a function spelled without a file, and a module outside tools/", async () => {
    const project = projectWith([
      { name: "no_file", function: "word_count" },
      { name: "outside", function: "../secrets.py:read" },
    ]);
    expect(await configErrorText(project)).toMatchInlineSnapshot(`
      "2 problems in tools.json:
        tools.json:5:19 tools[0].function: Expected "file.py:function": a Python file relative to tools/, a colon, and a function name, got "word_count"
        tools.json:9:19 tools[1].function: Expected a path inside tools/, got "../secrets.py": scripts may not escape the tools folder"
    `);
  });
});

describe("pythonModules in tools.json", () => {
  it("resolve files and folders to one entry per file, with their settings and the defaults", async () => {
    const project = projectWith([]);
    project.write("tools.json", { defaults: { timeoutMs: 7000, memoryLimitMb: 512 }, tools: [], pythonModules: ["text_tools.py", { path: "more/", parallel: true, env: { MODE: "fast" } }, "text_tools.py"] });
    project.write("tools/more/b.py", "");
    project.write("tools/more/a.py", "");
    project.write("tools/more/_helpers.py", "");
    const config = await loadProjectConfig({ root: project.root });
    expect(config.entries.python).toEqual([]);
    expect(config.sections.python.modules).toEqual([
      { module: project.path("tools/text_tools.py"), modulePath: "text_tools.py", interpreter: "python3", timeoutMs: 7000, parallel: false, env: {}, cwd: project.root, memoryLimitMb: 512 },
      { module: project.path("tools/more/a.py"), modulePath: "more/a.py", interpreter: "python3", timeoutMs: 7000, parallel: true, env: { MODE: "fast" }, cwd: project.root, memoryLimitMb: 512 },
      { module: project.path("tools/more/b.py"), modulePath: "more/b.py", interpreter: "python3", timeoutMs: 7000, parallel: true, env: { MODE: "fast" }, cwd: project.root, memoryLimitMb: 512 },
    ]);
  });

  it("refuse paths outside tools/, files that are not Python, and memoryLimitMb on a script tool", async () => {
    const project = projectWith([{ name: "script", description: "d", runtime: "shell", script: "x.sh", inputSchema: { type: "object" }, memoryLimitMb: 128 }]);
    const tools = JSON.parse(readFileSync(project.path("tools.json"), "utf8")) as object;
    project.write("tools/notes.txt", "");
    project.write("tools.json", { ...tools, pythonModules: ["../elsewhere.py", "notes.txt", { path: "text_tools.py", memoryLimitMb: 8 }, "/"] });
    expect(await configErrorText(project)).toMatchInlineSnapshot(`
      "5 problems in tools.json:
        tools.json:11:24 tools[0].memoryLimitMb: "memoryLimitMb" applies to function tools only: it caps a warm Python worker (remove it, or name a function)
        tools.json:15:5 pythonModules[0]: Expected a path inside tools/, got "../elsewhere.py": scripts may not escape the tools folder
        tools.json:16:5 pythonModules[1]: Expected a .py file or a folder inside tools/, got "notes.txt"
        tools.json:19:24 pythonModules[2].memoryLimitMb: Expected a number of at least 64, got 8
        tools.json:21:5 pythonModules[3]: Expected a path inside tools/, got "/": scripts may not escape the tools folder"
    `);
  });

  it("warn about a listed file that does not exist yet", async () => {
    const project = projectWith([]);
    project.write("tools.json", { tools: [], pythonModules: ["later.py"] });
    const config = await loadProjectConfig({ root: project.root });
    expect(config.warnings.map((warning) => warning.message)).toEqual(["Python module not found: tools/later.py (its tools appear once it exists)"]);
  });
});
