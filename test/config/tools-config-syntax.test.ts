/** tools.json that is missing, empty or not JSON at all: the error says where, and what came instead. */
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isConfigError, isToolexecError, ToolexecError } from "../../src/index.js";
import { loadProjectConfig } from "../../src/config.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { configErrorText, loadConfigError } from "./config-test-helpers.js";

describe("tools.json missing", () => {
  it("throws CONFIG_MISSING naming the absolute path and how to fix it", async () => {
    const project = createTempProject();
    const error = await loadConfigError(project);
    expect(error.code).toBe("CONFIG_MISSING");
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]).toMatchObject({ file: "tools.json", path: "" });
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json: File not found at <root>/tools.json; run \`npx toolexec init\` for a starter project, create it with { "tools": [] } (see docs/config.md), or pass \`toolsConfig: false\` to run without local tools"`);
  });

  it("is fine with `toolsConfig: false`", async () => {
    const project = createTempProject();
    const config = await loadProjectConfig({ root: project.root, toolsConfig: false });
    expect(config.entries.script).toEqual([]);
    expect(config.files).toEqual([project.path("mcp.json")]);
  });

  it("names a custom file name as given", async () => {
    const project = createTempProject();
    expect(await configErrorText(project, { toolsConfig: "config/my-tools.json" })).toMatchInlineSnapshot(`"config/my-tools.json: File not found at <root>/config/my-tools.json; run \`npx toolexec init\` for a starter project, create it with { "tools": [] } (see docs/config.md), or pass \`toolsConfig: false\` to run without local tools"`);
  });

  it("is a ConfigError, a ToolexecError and an Error", async () => {
    const error = await loadConfigError(createTempProject());
    expect(error).toBeInstanceOf(ToolexecError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("ConfigError");
    expect(isConfigError(error)).toBe(true);
    expect(isToolexecError(error)).toBe(true);
    expect(error.details).toEqual({ issues: error.issues });
  });

  it("reports a folder in the file's place as unreadable, not as missing", async () => {
    const project = createTempProject();
    project.write("tools.json/placeholder", "");
    const error = await loadConfigError(project);
    expect(error.code).toBe("CONFIG_INVALID");
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json: Expected a file at <root>/tools.json, got a folder"`);
  });
});

describe("tools.json that is not a JSON object", () => {
  it.each([
    ["empty", ""],
    ["whitespace only", "  \n\t\n  "],
    ["a BOM only", "\uFEFF"],
  ])("rejects a file that is %s", async (_, content) => {
    const project = createTempProject({ tools: content });
    const error = await loadConfigError(project);
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.issues).toEqual([{ file: "tools.json", path: "", line: 1, column: 1, message: expect.any(String) }]);
    expect(error.message).toMatchInlineSnapshot(`"tools.json:1:1: File is empty: expected a JSON object"`);
  });

  it("rejects a top-level array", async () => {
    const project = createTempProject({ tools: [toolEntry("echo", "shell", "echo.sh")] });
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json:1:1: Expected a JSON object at the top level, got an array"`);
  });

  it.each([
    ["a string", '"tools"'],
    ["a number", "42"],
    ["null", "null"],
    ["true", "true"],
  ])("rejects %s at the top level", async (_, content) => {
    const project = createTempProject({ tools: content });
    const error = await loadConfigError(project);
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.issues[0]?.message).toMatch(/^Expected a JSON object at the top level, got /);
  });

  it("names a string at the top level as written", async () => {
    expect(await configErrorText(createTempProject({ tools: '"tools"' }))).toMatchInlineSnapshot(`"tools.json:1:1: Expected a JSON object at the top level, got "tools""`);
  });
});

describe("tools.json with invalid JSON", () => {
  it("points at a trailing comma in an array", async () => {
    const project = createTempProject({
      tools: `{
  "tools": [
    { "name": "echo" },
  ]
}`,
    });
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json:3:23: Invalid JSON: trailing comma before ']' (JSON allows none), remove it"`);
  });

  it("points at a trailing comma in an object", async () => {
    const project = createTempProject({ tools: '{\n  "tools": [],\n}\n' });
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json:2:14: Invalid JSON: trailing comma before '}' (JSON allows none), remove it"`);
  });

  it("points at the opening quote of an unterminated string", async () => {
    const project = createTempProject({ tools: '{\n  "tools": [\n    { "name": "echo\n  ]\n}\n' });
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json:3:15: Invalid JSON: unterminated string: expected a closing quote before the end of the line"`);
  });

  it("points at a string that runs to the end of the file", async () => {
    const project = createTempProject({ tools: '{ "tools": [], "defaults": "abc' });
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json:1:28: Invalid JSON: unterminated string: expected a closing quote before the end of the file"`);
  });

  it("points at single quotes", async () => {
    const project = createTempProject({ tools: "{\n  'tools': []\n}\n" });
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json:2:3: Invalid JSON: expected a property name in double quotes, got a single quote (JSON strings use double quotes)"`);
  });

  it("points at single-quoted values", async () => {
    const project = createTempProject({ tools: "{\n  \"tools\": ['a']\n}\n" });
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json:2:13: Invalid JSON: expected a value (object, array, string, number, true, false or null), got a single quote (JSON strings use double quotes)"`);
  });

  it("points at a missing comma", async () => {
    const project = createTempProject({ tools: '{\n  "defaults": {}\n  "tools": []\n}\n' });
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json:3:3: Invalid JSON: expected ',' or '}' after a property value, got '"'; is a comma missing?"`);
  });

  it("points at a comment", async () => {
    const project = createTempProject({ tools: '{\n  // my tools\n  "tools": []\n}\n' });
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json:2:3: Invalid JSON: expected a property name in double quotes, got a comment (JSON has no comments)"`);
  });

  it("points at an unclosed object at the end of the file", async () => {
    const project = createTempProject({ tools: '{\n  "tools": []\n' });
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json:3:1: Invalid JSON: expected ',' or '}' after a property value, got the end of the file: the '{' at line 1, column 1 is never closed"`);
  });

  it("points at text after the top-level value", async () => {
    const project = createTempProject({ tools: '{ "tools": [] }\n{ "tools": [] }\n' });
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json:2:1: Invalid JSON: expected the end of the file after the top-level value, got '{'"`);
  });

  it("points at an unquoted key", async () => {
    const project = createTempProject({ tools: "{ tools: [] }" });
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json:1:3: Invalid JSON: expected a property name in double quotes, got 'tools'"`);
  });

  it("rejects absurdly deep nesting as CONFIG_INVALID instead of overflowing the stack", async () => {
    const deep = "[".repeat(10_000) + "]".repeat(10_000);
    const project = createTempProject({ tools: `{"tools": ${deep}}` });
    const error = await loadConfigError(project);
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toMatchInlineSnapshot(`"tools.json:1:266: Invalid JSON: values nested more than 256 levels deep"`);
  });

  it("reports only the first syntax error, with code CONFIG_INVALID", async () => {
    const project = createTempProject({ tools: "{ 'a': 1, 'b': 2, }" });
    const error = await loadConfigError(project);
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]).toMatchObject({ line: 1, column: 3 });
  });
});

describe("tools.json encoding", () => {
  it("accepts a UTF-8 byte order mark", async () => {
    const project = createTempProject({ tools: `\uFEFF${JSON.stringify({ tools: [toolEntry("echo", "shell", "echo.sh")] })}` });
    project.useFixtures("echo.sh");
    const config = await loadProjectConfig({ root: project.root });
    expect(config.entries.script.map((tool) => tool.name)).toEqual(["echo"]);
    expect(config.warnings).toEqual([]);
  });

  it("counts columns after a BOM from the first real character", async () => {
    const project = createTempProject({ tools: "\uFEFF{ 'tools': [] }" });
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json:1:3: Invalid JSON: expected a property name in double quotes, got a single quote (JSON strings use double quotes)"`);
  });

  it("accepts CRLF line endings and counts lines across them", async () => {
    const project = createTempProject({ tools: '{\r\n  "tools": [],\r\n  "extra": 1\r\n}\r\n' });
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json:3:3 extra: Unknown key "extra"; expected one of: $schema, defaults, tools, python, pythonModules, toolSearch, codeExecution, webSearch, profiles, identity"`);
  });
});

describe("tools.json duplicate keys", () => {
  it("rejects a duplicate key at the top level, pointing at the second one", async () => {
    const project = createTempProject({ tools: '{\n  "tools": [],\n  "tools": []\n}\n' });
    const error = await loadConfigError(project);
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toMatchInlineSnapshot(`"tools.json:3:3 tools: Duplicate key "tools": JSON keeps only the last one, so remove one of them"`);
  });

  it("rejects a duplicate key inside a tool, even when the entry is otherwise valid", async () => {
    const entry = JSON.stringify(toolEntry("echo", "shell", "echo.sh")).slice(0, -1);
    const project = createTempProject({ tools: `{\n  "tools": [\n    ${entry}, "timeoutMs": 5, "timeoutMs": 6}\n  ]\n}\n` });
    project.useFixtures("echo.sh");
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json:3:137 tools[0].timeoutMs: Duplicate key "timeoutMs": JSON keeps only the last one, so remove one of them"`);
  });

  it("rejects a duplicate key inside an inputSchema", async () => {
    const project = createTempProject({
      tools: `{"tools": [{"name": "echo", "description": "d", "runtime": "shell", "script": "echo.sh",
  "inputSchema": {"type": "object", "properties": {"a": {}, "a b": {}, "a b": {}}}}]}`,
    });
    project.useFixtures("echo.sh");
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json:2:72 tools[0].inputSchema.properties["a b"]: Duplicate key "a b": JSON keeps only the last one, so remove one of them"`);
  });

  it("reports a duplicate key together with schema problems, in file order", async () => {
    const project = createTempProject({ tools: '{ "tools": 1, "defaults": {}, "defaults": {} }' });
    const error = await loadConfigError(project);
    expect(error.issues.map((issue) => [issue.path, issue.column])).toEqual([["tools", 12], ["defaults", 31]]);
  });
});

describe("encodings", () => {
  const valid = (description: string) => JSON.stringify({ tools: [toolEntry("t", "shell", "t.sh", { description })] }, null, 2);

  it("rejects Latin-1 bytes, at the line and column of the first one", async () => {
    const project = createTempProject();
    writeFileSync(project.path("tools.json"), Buffer.from(valid("Café au lait"), "latin1"));
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json:5:26: Expected UTF-8 text, got the byte 0xE9, which is not valid UTF-8 (a Latin-1 or Windows-1252 character?): save the file as UTF-8"`);
  });

  it("rejects UTF-16, with or without its byte-order mark", async () => {
    const withMark = createTempProject();
    writeFileSync(withMark.path("tools.json"), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(valid("x"), "utf16le")]));
    expect(await configErrorText(withMark)).toMatchInlineSnapshot(`"tools.json:1:1: Expected UTF-8 text, got what looks like UTF-16: save the file as UTF-8"`);
    const withoutMark = createTempProject();
    writeFileSync(withoutMark.path("tools.json"), Buffer.from(valid("x"), "utf16le"));
    expect((await loadConfigError(withoutMark)).issues).toMatchObject([{ file: "tools.json", path: "", line: 1, column: 1, message: expect.stringMatching(/UTF-16/) }]);
  });

  it("accepts UTF-8 with accents and a byte-order mark", async () => {
    const project = createTempProject();
    writeFileSync(project.path("tools.json"), `\uFEFF${valid("Café ☕ 🚀")}`);
    const config = await loadProjectConfig({ root: project.root });
    expect(config.entries.script[0]?.description).toBe("Café ☕ 🚀");
  });
});
