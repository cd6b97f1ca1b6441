/** tools.json keys and values: unknown keys, missing keys, wrong types and values, each located. */
import { describe, expect, it } from "vitest";
import { loadProjectConfig } from "../../src/config.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { configErrorText, loadConfigError, projectWithOneTool } from "./config-test-helpers.js";

describe("unknown keys", () => {
  it("rejects an unknown top-level key with a did-you-mean hint, pointing at the key", async () => {
    const project = createTempProject({ tools: { tool: [] , tools: [] } });
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json:2:3 tool: Unknown key "tool" (did you mean "tools"?); expected one of: $schema, defaults, tools, python, pythonModules, toolSearch, codeExecution, webSearch, profiles, identity"`);
  });

  it("rejects an unknown key in defaults", async () => {
    const project = createTempProject({ tools: { defaults: { timeout: 5 }, tools: [] } });
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json:3:5 defaults.timeout: Unknown key "timeout" (did you mean "timeoutMs"?); expected one of: timeoutMs, maxOutputBytes, parallel, python, env, memoryLimitMb, results"`);
  });

  it("rejects an unknown key in a tool", async () => {
    expect(await configErrorText(projectWithOneTool({ timeoutMS: 5 }))).toMatchInlineSnapshot(`"tools.json:11:7 tools[0].timeoutMS: Unknown key "timeoutMS" (did you mean "timeoutMs"?); expected one of: name, title, description, runtime, script, function, args, interpreter, inputSchema, outputSchema, annotations, timeoutMs, parallel, env, cwd, maxOutputBytes, memoryLimitMb, results, python"`);
  });

  it("rejects an unknown key in annotations", async () => {
    expect(await configErrorText(projectWithOneTool({ annotations: { readonlyHint: true } }))).toMatchInlineSnapshot(`"tools.json:12:9 tools[0].annotations.readonlyHint: Unknown key "readonlyHint" (did you mean "readOnlyHint"?); expected one of: title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint"`);
  });

  it("leaves out the hint when nothing is close", async () => {
    expect(await configErrorText(projectWithOneTool({ zzzzzzzz: 1 }))).toMatchInlineSnapshot(`"tools.json:11:7 tools[0].zzzzzzzz: Unknown key "zzzzzzzz"; expected one of: name, title, description, runtime, script, function, args, interpreter, inputSchema, outputSchema, annotations, timeoutMs, parallel, env, cwd, maxOutputBytes, memoryLimitMb, results, python"`);
  });

  it("names every unknown key of one object", async () => {
    const error = await loadConfigError(projectWithOneTool({ foo: 1, bar: 2 }));
    expect(error.issues.map((issue) => issue.path)).toEqual(["tools[0].foo", "tools[0].bar"]);
  });

  it("quotes a key that is not an identifier in the path", async () => {
    expect(await configErrorText(projectWithOneTool({ "time out": 1 }))).toMatchInlineSnapshot(`"tools.json:11:7 tools[0]["time out"]: Unknown key "time out"; expected one of: name, title, description, runtime, script, function, args, interpreter, inputSchema, outputSchema, annotations, timeoutMs, parallel, env, cwd, maxOutputBytes, memoryLimitMb, results, python"`);
  });

  it("accepts $schema at the top level", async () => {
    const project = createTempProject({ tools: { $schema: "./node_modules/toolexec/schema/tools.schema.json", tools: [] } });
    await expect(loadProjectConfig({ root: project.root })).resolves.toMatchObject({ entries: { script: [] } });
  });
});

describe("missing required keys", () => {
  it("rejects a file without tools", async () => {
    expect(await configErrorText(createTempProject({ tools: {} }))).toMatchInlineSnapshot(`"tools.json:1:1: Missing required key "tools" (expected an array)"`);
  });

  it.each(["name", "description", "runtime", "script", "inputSchema"])("rejects a tool without %s, pointing at the tool", async (key) => {
    const entry: Record<string, unknown> = toolEntry("echo", "shell", "echo.sh");
    delete entry[key];
    const project = createTempProject({ tools: { tools: [entry] } });
    project.useFixtures("echo.sh");
    const error = await loadConfigError(project);
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]).toMatchObject({ file: "tools.json", path: "tools[0]", line: 3, column: 5 });
    expect(error.issues[0]?.message).toMatch(new RegExp(`^Missing required key "${key}"`));
  });

  it("words the missing-key message for people", async () => {
    const project = createTempProject({ tools: { tools: [{ name: "echo", runtime: "shell", script: "echo.sh", inputSchema: { type: "object" } }] } });
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json:3:5 tools[0]: Missing required key "description" (expected a string)"`);
  });

  it("reports every missing key of an empty tool", async () => {
    expect(await configErrorText(createTempProject({ tools: { tools: [{}] } }))).toMatchInlineSnapshot(`
      "5 problems in tools.json:
        tools.json:3:5 tools[0]: Missing required key "name" (expected a string)
        tools.json:3:5 tools[0]: Missing required key "description" (expected a string)
        tools.json:3:5 tools[0]: Missing required key "runtime" (expected one of "python", "shell", "node")
        tools.json:3:5 tools[0]: Missing required key "script" (expected a string; or name a Python function with "function": "file.py:name")
        tools.json:3:5 tools[0]: Missing required key "inputSchema" (expected an object)"
    `);
  });
});

describe("wrong types and values", () => {
  const badValues: Array<[string, Record<string, unknown>]> = [
    ["timeoutMs as a string", { timeoutMs: "5000" }],
    ["negative timeoutMs", { timeoutMs: -5 }],
    ["zero timeoutMs", { timeoutMs: 0 }],
    ["fractional timeoutMs", { timeoutMs: 1.5 }],
    ["timeoutMs above setTimeout's ceiling", { timeoutMs: 2_147_483_648 }],
    ["null timeoutMs", { timeoutMs: null }],
    ["parallel as a string", { parallel: "true" }],
    ["parallel as a number", { parallel: 1 }],
    ["env with a number value", { env: { PORT: 8080 } }],
    ["env as an array", { env: ["A=1"] }],
    ["maxOutputBytes of 0", { maxOutputBytes: 0 }],
    ["runtime ruby", { runtime: "ruby" }],
    ["runtime in capitals", { runtime: "Python" }],
    ["empty description", { description: "" }],
    ["empty script", { script: "" }],
    ["args with a number", { args: ["--verbose", 3] }],
    ["args as a string", { args: "--verbose" }],
    ["inputSchema as an array", { inputSchema: [] }],
    ["inputSchema as a string", { inputSchema: "object" }],
    ["annotations hint as a string", { annotations: { readOnlyHint: "yes" } }],
    ["title as a number", { title: 7 }],
    ["name as a number", { name: 7 }],
    ["empty cwd", { cwd: "" }],
  ];

  it.each(badValues)("rejects %s with one located issue", async (_, extra) => {
    const error = await loadConfigError(projectWithOneTool(extra));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.issues).toEqual([{ file: "tools.json", path: expect.stringMatching(/^tools\[0\]\./), line: expect.any(Number), column: expect.any(Number), message: expect.any(String) }]);
  });

  it("words each bad value with what was expected and what came", async () => {
    const lines: string[] = [];
    for (const [label, extra] of badValues) lines.push(`${label} → ${(await loadConfigError(projectWithOneTool(extra))).message}`);
    expect(lines.join("\n")).toMatchInlineSnapshot(`
      "timeoutMs as a string → tools.json:11:20 tools[0].timeoutMs: Expected a number, got "5000" (remove the quotes)
      negative timeoutMs → tools.json:11:20 tools[0].timeoutMs: Expected a number greater than 0, got -5
      zero timeoutMs → tools.json:11:20 tools[0].timeoutMs: Expected a number greater than 0, got 0
      fractional timeoutMs → tools.json:11:20 tools[0].timeoutMs: Expected an integer, got 1.5
      timeoutMs above setTimeout's ceiling → tools.json:11:20 tools[0].timeoutMs: Expected a number of at most 2147483647, got 2147483648
      null timeoutMs → tools.json:11:20 tools[0].timeoutMs: Expected a number, got null
      parallel as a string → tools.json:11:19 tools[0].parallel: Expected a boolean, got "true" (remove the quotes)
      parallel as a number → tools.json:11:19 tools[0].parallel: Expected a boolean, got 1
      env with a number value → tools.json:12:17 tools[0].env.PORT: Expected a string, got 8080
      env as an array → tools.json:11:14 tools[0].env: Expected an object, got an array
      maxOutputBytes of 0 → tools.json:11:25 tools[0].maxOutputBytes: Expected a number greater than 0, got 0
      runtime ruby → tools.json:6:18 tools[0].runtime: Expected one of "python", "shell", "node", got "ruby"
      runtime in capitals → tools.json:6:18 tools[0].runtime: Expected one of "python", "shell", "node", got "Python"
      empty description → tools.json:5:22 tools[0].description: Expected a non-empty string, got ""
      empty script → tools.json:7:17 tools[0].script: Expected a non-empty string, got ""
      args with a number → tools.json:13:9 tools[0].args[1]: Expected a string, got 3
      args as a string → tools.json:11:15 tools[0].args: Expected an array, got "--verbose"
      inputSchema as an array → tools.json:8:22 tools[0].inputSchema: Expected an object, got an array
      inputSchema as a string → tools.json:8:22 tools[0].inputSchema: Expected an object, got "object"
      annotations hint as a string → tools.json:12:25 tools[0].annotations.readOnlyHint: Expected a boolean, got "yes"
      title as a number → tools.json:11:16 tools[0].title: Expected a string, got 7
      name as a number → tools.json:4:15 tools[0].name: Expected a string, got 7
      empty cwd → tools.json:11:14 tools[0].cwd: Expected a non-empty string, got """
    `);
  });

  it("accepts timeoutMs at setTimeout's ceiling", async () => {
    const config = await loadProjectConfig({ root: projectWithOneTool({ timeoutMs: 2_147_483_647 }).root });
    expect(config.entries.script[0]?.timeoutMs).toBe(2_147_483_647);
  });

  it("pins the wording for a string where a number belongs", async () => {
    expect(await configErrorText(projectWithOneTool({ timeoutMs: "5000" }))).toMatchInlineSnapshot(`"tools.json:11:20 tools[0].timeoutMs: Expected a number, got "5000" (remove the quotes)"`);
  });

  it("pins the wording for a number too small", async () => {
    expect(await configErrorText(projectWithOneTool({ timeoutMs: 0 }))).toMatchInlineSnapshot(`"tools.json:11:20 tools[0].timeoutMs: Expected a number greater than 0, got 0"`);
  });

  it("pins the wording for a fraction", async () => {
    expect(await configErrorText(projectWithOneTool({ timeoutMs: 1.5 }))).toMatchInlineSnapshot(`"tools.json:11:20 tools[0].timeoutMs: Expected an integer, got 1.5"`);
  });

  it("pins the wording for a number too large", async () => {
    expect(await configErrorText(projectWithOneTool({ timeoutMs: 2_147_483_648 }))).toMatchInlineSnapshot(`"tools.json:11:20 tools[0].timeoutMs: Expected a number of at most 2147483647, got 2147483648"`);
  });

  it("pins the wording for an unknown runtime", async () => {
    expect(await configErrorText(projectWithOneTool({ runtime: "ruby" }))).toMatchInlineSnapshot(`"tools.json:6:18 tools[0].runtime: Expected one of "python", "shell", "node", got "ruby""`);
  });

  it("pins the wording for an env value that is not a string, pointing at the value", async () => {
    expect(await configErrorText(projectWithOneTool({ env: { PORT: 8080 } }))).toMatchInlineSnapshot(`"tools.json:12:17 tools[0].env.PORT: Expected a string, got 8080"`);
  });

  it("rejects bad values in defaults", async () => {
    const project = createTempProject({
      tools: { defaults: { timeoutMs: -1, parallel: "no", maxOutputBytes: 0, python: "", env: { A: true } }, tools: [] },
    });
    expect(await configErrorText(project)).toMatchInlineSnapshot(`
      "5 problems in tools.json:
        tools.json:3:18 defaults.timeoutMs: Expected a number greater than 0, got -1
        tools.json:4:17 defaults.parallel: Expected a boolean, got "no"
        tools.json:5:23 defaults.maxOutputBytes: Expected a number greater than 0, got 0
        tools.json:6:15 defaults.python: Expected a non-empty string, got ""
        tools.json:8:12 defaults.env.A: Expected a string, got true"
    `);
  });

  it("rejects tools that is not an array", async () => {
    expect(await configErrorText(createTempProject({ tools: { tools: { echo: {} } } }))).toMatchInlineSnapshot(`"tools.json:2:12 tools: Expected an array, got an object"`);
  });

  it("rejects a tool that is not an object", async () => {
    expect(await configErrorText(createTempProject({ tools: { tools: ["echo"] } }))).toMatchInlineSnapshot(`"tools.json:3:5 tools[0]: Expected an object, got "echo""`);
  });
});

describe("many problems at once", () => {
  it("reports every problem of the file in one ConfigError, in file order", async () => {
    const project = createTempProject({
      tools: {
        defaults: { timeoutMs: "1s" },
        tools: [
          toolEntry("echo", "shell", "echo.sh", { parallel: "yes" }),
          toolEntry("ruby", "shell", "echo.rb", { runtime: "ruby" }),
          toolEntry("bad name", "python", "echo.py"),
          toolEntry("escape", "python", "../escape.py", { inputSchema: { type: "string" } }),
          toolEntry("echo", "shell", "echo.sh", { cwd: "/", interpreter: "python3" }),
        ],
        extra: true,
      },
    });
    project.useFixtures("echo.sh", "echo.py");
    const error = await loadConfigError(project);
    expect(error.code).toBe("CONFIG_INVALID");
    for (const issue of error.issues) {
      expect(issue).toMatchObject({ file: "tools.json", line: expect.any(Number), column: expect.any(Number) });
    }
    expect(error.message).toMatchInlineSnapshot(`
      "10 problems in tools.json:
        tools.json:3:18 defaults.timeoutMs: Expected a number, got "1s"
        tools.json:14:19 tools[0].parallel: Expected a boolean, got "yes"
        tools.json:19:18 tools[1].runtime: Expected one of "python", "shell", "node", got "ruby"
        tools.json:26:15 tools[2].name: Expected a tool name of 1-128 characters from A-Z a-z 0-9 _ - . without "__", got "bad name"
        tools.json:38:17 tools[3].script: Expected a path inside tools/, got "../escape.py": scripts may not escape the tools folder
        tools.json:40:17 tools[3].inputSchema.type: Expected "object" (arguments are always an object), got "string"
        tools.json:44:15 tools[4].name: Duplicate tool name "echo" (first defined at tools[0]); tool names must be unique
        tools.json:51:14 tools[4].cwd: Expected a folder inside the project, got "/"
        tools.json:52:22 tools[4].interpreter: "interpreter" applies to the python runtime only, got runtime "shell"
        tools.json:55:3 extra: Unknown key "extra"; expected one of: $schema, defaults, tools, python, pythonModules, toolSearch, codeExecution, webSearch, profiles, identity"
    `);
  });

  it("checks names, scripts and schemas of valid tools even when the file has schema errors", async () => {
    const project = createTempProject({
      tools: { tools: [toolEntry("a", "shell", "../a.sh", { inputSchema: { type: "objekt" } }), toolEntry("a", "shell", "a.sh")], extra: 1 },
    });
    const error = await loadConfigError(project);
    expect(error.issues.map((issue) => issue.path)).toEqual(["tools[0].script", "tools[0].inputSchema.type", "tools[1].name", "extra"]);
  });

  it("finds a duplicate name even when the first tool of that name is invalid", async () => {
    const project = createTempProject({ tools: { tools: [toolEntry("a", "shell", "a.sh", { timeoutMs: -1 }), toolEntry("a", "shell", "a.sh")] } });
    const error = await loadConfigError(project);
    expect(error.issues.map((issue) => issue.path)).toEqual(["tools[0].timeoutMs", "tools[1].name"]);
  });
});

describe("keys named __proto__", () => {
  it("keeps an env variable named __proto__ as data", async () => {
    const entry = JSON.stringify(toolEntry("echo", "shell", "echo.sh")).slice(0, -1);
    const project = createTempProject({ tools: `{"defaults": {"env": {"__proto__": "a", "B": "b"}}, "tools": [${entry}, "env": {"C": "c"}}]}` });
    project.useFixtures("echo.sh");
    const config = await loadProjectConfig({ root: project.root });
    const env = config.entries.script[0]?.env ?? {};
    expect(Object.keys(env)).toEqual(["__proto__", "B", "C"]);
    expect(Object.getPrototypeOf(env)).toBe(Object.prototype);
  });

  it("rejects __proto__ as an unknown key of a tool", async () => {
    const entry = JSON.stringify(toolEntry("echo", "shell", "echo.sh")).slice(0, -1);
    const project = createTempProject({ tools: `{"tools": [${entry}, "__proto__": {"timeoutMs": 1}}]}` });
    project.useFixtures("echo.sh");
    const error = await loadConfigError(project);
    expect(error.issues.map((issue) => issue.path)).toEqual(['tools[0].__proto__']);
  });
});
