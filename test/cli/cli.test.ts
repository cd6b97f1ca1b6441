/** The built `toolexec` binary, run as a real process on real projects. */
import { describe, expect, it } from "vitest";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { runCli as run } from "./run-cli.js";

function exampleProject() {
  const project = createTempProject({
    tools: {
      tools: [
        toolEntry("add", "python", "add.py", {
          description: "Add two numbers. Returns their sum.",
          inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"], additionalProperties: false },
          parallel: true,
        }),
        toolEntry("fail", "shell", "fail.sh"),
      ],
    },
  });
  project.write("tools/add.py", "import json, sys\nargs = json.load(sys.stdin)\nprint(json.dumps({'sum': args['a'] + args['b']}))\n");
  project.write("tools/fail.sh", "echo 'disk is full' >&2\nexit 3\n");
  return project;
}

describe("toolexec CLI", () => {
  it("prints usage with --help and exits 2 with no command", async () => {
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: toolexec <command> [options]");
    const none = await run([]);
    expect(none.code).toBe(2);
  });

  it("validate: ok on a good project, exit 1 with file, path and expectation on a broken one", async () => {
    const project = exampleProject();
    const good = await run(["validate", "--root", project.root]);
    expect(good).toMatchObject({ code: 0, stdout: "ok: 2 tool(s) in tools.json, 0 server(s) in mcp.json\n" });

    project.write("tools.json", '{\n  "tools": [\n    { "name": "add", "description": "d", "runtime": "python", "script": "add.py",\n      "inputSchema": { "type": "object" }, "timeoutMs": "fast" }\n  ]\n}\n');
    const bad = await run(["validate", "--root", project.root]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatchInlineSnapshot(`
      "Invalid config:
        tools.json:4:57 tools[0].timeoutMs: Expected a number, got "fast"
      "
    `);
    const json = await run(["validate", "--root", project.root, "--json"]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: "CONFIG_INVALID", issues: [{ file: "tools.json", path: "tools[0].timeoutMs", line: 4, column: 57 }] } });
  });

  it("validate: a missing script is a warning, not a failure", async () => {
    const project = exampleProject();
    project.write("tools.json", { tools: [toolEntry("ghost", "python", "ghost.py")] });
    const result = await run(["validate", "--root", project.root]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("tools.json:");
    expect(result.stderr).toContain("tools[0].script: Script not found: tools/ghost.py");
  });

  it("validate: a project with only mcp.json is valid; one with neither file says so and exits 1", async () => {
    const mcpOnly = createTempProject();
    expect(await run(["validate", "--root", mcpOnly.root])).toMatchObject({ code: 0, stdout: "ok: no tools config, 0 server(s) in mcp.json\n" });
    const empty = createTempProject({ mcp: false });
    const result = await run(["validate", "--root", empty.root]);
    expect(result.code).toBe(1);
    expect(result.stderr.replaceAll(empty.root, "<root>")).toMatchInlineSnapshot(`
      "toolexec validate: No tools.json or mcp.json in <root>: create them with \`npx toolexec init --root <root>\`, or name a file with --tools-config or --mcp-config
      "
    `);
  });

  it("tools list: human-readable and exact JSON", async () => {
    const project = exampleProject();
    const text = await run(["tools", "list", "--root", project.root]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatchInlineSnapshot(`
      "add          Add two numbers.
                   args: a*: number, b*: number
      fail         Test tool fail
                   args: (none)
      read_result  Read more of a tool result that was cut short: its last line names a handle such as r_… .
                   args: handle*: string, offset: integer, limit: integer, path: string

      3 tools (* = required argument)
      "
    `);
    const json = await run(["tools", "list", "--root", project.root, "--json"]);
    const tools = JSON.parse(json.stdout) as Array<{ name: string; inputSchema: object }>;
    expect(tools.map((tool) => tool.name)).toEqual(["add", "fail", "read_result"]);
    expect(tools[0]!.inputSchema).toMatchObject({ required: ["a", "b"] });
  });

  it("tools call: prints the value, or the exact envelope with --json", async () => {
    const project = exampleProject();
    const text = await run(["tools", "call", "add", "--args", '{"a": 2, "b": 3}', "--root", project.root]);
    expect(text).toMatchObject({ code: 0, stdout: '{\n  "sum": 5\n}\n' });
    const json = await run(["tools", "call", "add", "--args", '{"a": 2, "b": 3}', "--root", project.root, "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, value: { sum: 5 }, tool: "add" });
  });

  it("tools call: reads --args-file from a file or stdin", async () => {
    const project = exampleProject();
    const file = project.write("args.json", { a: 1, b: 1 });
    expect((await run(["tools", "call", "add", "--args-file", file, "--root", project.root])).stdout).toBe('{\n  "sum": 2\n}\n');
    expect((await run(["tools", "call", "add", "--args-file", "-", "--root", project.root], { input: '{"a": 5, "b": 5}' })).stdout).toBe('{\n  "sum": 10\n}\n');
  });

  it("tools call: a failing tool exits 1 with code, message, stderr and execution id", async () => {
    const project = exampleProject();
    const result = await run(["tools", "call", "fail", "--root", project.root]);
    expect(result.code).toBe(1);
    expect(result.stderr.replace(/[0-9a-f-]{36}/, "<id>")).toMatchInlineSnapshot(`
      "error TOOL_FAILED: tools/fail.sh exited with code 3: disk is full
      stderr (last lines):
        disk is full
      execution id: <id>
      "
    `);
    const json = await run(["tools", "call", "fail", "--root", project.root, "--json"]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: "TOOL_FAILED" } });
  });

  it("tools call: invalid arguments and unknown tools exit 1 with a clear code", async () => {
    const project = exampleProject();
    const invalid = await run(["tools", "call", "add", "--args", '{"a": "2"}', "--root", project.root]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('error INVALID_INPUT: Invalid arguments for "add": arguments: missing required property "b"; a: must be number');
    const unknown = await run(["tools", "call", "ad", "--root", project.root]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('error TOOL_NOT_FOUND: No tool named "ad"; did you mean "add"?');
  });

  it("tools call: --timeout bounds the call", async () => {
    const project = exampleProject();
    project.write("tools.json", { tools: [toolEntry("nap", "shell", "nap.sh")] });
    project.write("tools/nap.sh", "sleep 30\n");
    const started = Date.now();
    const result = await run(["tools", "call", "nap", "--timeout", "300", "--root", project.root]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("error TIMEOUT:");
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("rejects usage errors with exit 2, in a short message that points at the command's help", async () => {
    const project = exampleProject();
    const cases = [
      ["tools", "call", "add", "--args", "{bad", "--root", project.root],
      ["tools", "call", "add", "--args", "{}", "--args-file", "x.json", "--root", project.root],
      ["tools", "call", "--root", project.root],
      ["tools", "list", "extra", "--root", project.root],
      ["tools", "call", "add", "--timeout", "soon", "--root", project.root],
      ["frobnicate"],
      ["validate", "--no-such-flag"],
    ];
    // Independent runs, side by side: seven process starts in a row outlast a test's time on a busy machine.
    const results = await Promise.all(cases.map((args) => run(args)));
    for (const [index, args] of cases.entries()) {
      const result = results[index]!;
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stderr).toMatch(/^toolexec[a-z ]*: .+\nRun `toolexec[a-z ]* --help` for usage and examples\.\n$/);
    }
  });
});
