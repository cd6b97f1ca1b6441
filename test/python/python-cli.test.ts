/** The CLI shows tools discovered in pythonModules files: `tools list` and `validate` (built dist/, real processes). */
import { describe, expect, it } from "vitest";
import { runCli } from "../cli/run-cli.js";
import { discoveringProject, pythonProject, textTools } from "./python-test-helpers.js";

describe("toolexec with pythonModules", () => {
  it("validate imports the listed modules and names their tools", async () => {
    const project = discoveringProject(["sdk_fastmcp_server.py", "marked_tools.py"], [{ name: "word_count", function: "text_tools.py:word_count" }]);
    const text = await runCli(["validate", "--root", project.root]);
    expect({ code: text.code, stdout: text.stdout }).toEqual({ code: 0, stdout: "ok: 7 tool(s) in tools.json (6 of them found in 2 Python module(s)), 0 server(s) in mcp.json\n" });
    const json = await runCli(["validate", "--root", project.root, "--json"]);
    expect(JSON.parse(json.stdout).tools).toEqual(["word_count", "reverse", "lookup", "upper", "greet", "pid_of_worker", "read_variable"]);
  });

  it("validate counts only the modules' tools as found in them, not built-ins such as web_search", async () => {
    const project = discoveringProject(["marked_tools.py"]);
    project.write("tools.json", { tools: [], pythonModules: ["marked_tools.py"], webSearch: { provider: "searxng", url: "http://127.0.0.1:9" } });
    const text = await runCli(["validate", "--root", project.root]);
    expect(text.stdout).toMatch(/\((\d+) of them found in 1 Python module\(s\)\)/);
    const json = JSON.parse((await runCli(["validate", "--root", project.root, "--json"])).stdout);
    expect(json.tools).not.toContain("web_search");
    expect(text.stdout).toContain(`ok: ${json.tools.length} tool(s) in tools.json (${json.tools.length} of them found in 1 Python module(s))`);
  });

  it("validate fails on a name clash, naming both sources", async () => {
    const project = discoveringProject(["clashing_tools.py"], [{ name: "word_count", function: "text_tools.py:word_count" }]);
    const result = await runCli(["validate", "--root", project.root]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Tool name "word_count" is defined by both tools.json (function "text_tools.py:word_count") and tools/clashing_tools.py:4 (a marked function)');
  });

  it("validate fails naming a broken function entry, and says what still works; --strict refuses it at start-up", async () => {
    const project = pythonProject([...textTools("word_count", "echo", "chatty"), { name: "wrod_count", function: "text_tools.py:wrod_count" }]);
    const text = await runCli(["validate", "--root", project.root]);
    expect({ code: text.code, stdout: text.stdout }).toEqual({ code: 1, stdout: "" });
    // Named once, as a broken piece: not also as the warning of its leaving.
    expect(text.stderr).toMatchInlineSnapshot(`
      "error: 1 broken: tool "wrod_count"; still working: 3 tool(s), 0 server(s)
        Python tool "wrod_count" is unavailable: tools.json tools[3]: function "wrod_count" not found in tools/text_tools.py; did you mean "word_count"?
      "
    `);
    const json = await runCli(["validate", "--root", project.root, "--json"]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      broken: [{ kind: "tool", name: "wrod_count", source: { file: "tools.json", path: "tools[3]" } }],
      working: { tools: 3, servers: 0 },
    });
    const strict = await runCli(["validate", "--root", project.root, "--strict"]);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('tools.json tools[3]: Python tool "wrod_count" is unavailable: function "wrod_count" not found in tools/text_tools.py; did you mean "word_count"? (strict: true)');
  });

  it("validate fails naming a pythonModules file that does not import, once; --strict refuses it at start-up", async () => {
    const project = discoveringProject(["broken_import.py", "marked_tools.py"]);
    const text = await runCli(["validate", "--root", project.root]);
    expect({ code: text.code, stdout: text.stdout }).toEqual({ code: 1, stdout: "" });
    expect(text.stderr).toMatch(/^error: 1 broken: module "tools\/broken_import\.py"; still working: \d+ tool\(s\), 0 server\(s\)\n {2}Python module tools\/broken_import\.py is unavailable: tools\/broken_import\.py:\d+: \w+Error: .+\n$/);
    const json = await runCli(["validate", "--root", project.root, "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, broken: [{ kind: "module", name: "tools/broken_import.py" }] });
    const strict = await runCli(["validate", "--root", project.root, "--strict"]);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/Python module tools\/broken_import\.py is unavailable: .+ \(strict: true\)/);
  });

  it("validate starts the Python tools of function entries alone, and passes when each resolves", async () => {
    const result = await runCli(["validate", "--root", pythonProject(textTools("word_count", "echo")).root]);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: "ok: 2 tool(s) in tools.json, 0 server(s) in mcp.json\n" });
  });

  it("tools list shows a FastMCP file's tools with their arguments", async () => {
    const result = await runCli(["tools", "list", "--root", discoveringProject(["fastmcp_server.py"]).root]);
    expect(result.stdout).toMatchInlineSnapshot(`
      "add          Add two numbers.
                   args: a*: integer, b*: integer
      multiply     Multiply two numbers.
                   args: a*: number, b*: number
      welcome      Welcome a user, logging through the context.
                   args: user*: string
      read_result  Read more of a tool result that was cut short: its last line names a handle such as r_… .
                   args: handle*: string, offset: integer, limit: integer, path: string

      4 tools (* = required argument)
      "
    `);
  });
});
