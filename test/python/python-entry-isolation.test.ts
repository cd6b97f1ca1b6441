/**
 * One broken tools.json function entry fails alone (real python3): its module's other tools are
 * served, a call of it answers why, `configStatus()` lists it, and `strict: true` refuses it.
 */
import { describe, expect, it } from "vitest";
import { createExecutor, isConfigError } from "../../src/index.js";
import { createMemoryLogger, discoveringProject, pythonProject, startExecutor, textTools } from "./python-test-helpers.js";

/** text_tools.py with four good entries and, at tools[3], one whose function name has a typo. */
function projectWithTypo() {
  return pythonProject([...textTools("word_count", "echo", "chatty"), { name: "wrod_count", function: "text_tools.py:wrod_count" }, ...textTools("worker_pid")]);
}

describe("a broken Python function entry", () => {
  it("fails alone: its module's other tools work, and a call of it says which entry and what it meant", async () => {
    const logger = createMemoryLogger();
    const executor = await startExecutor(projectWithTypo(), { logger });
    expect((await executor.listTools()).map((tool) => tool.name)).toEqual(["word_count", "echo", "chatty", "worker_pid", "read_result"]);
    expect(await executor.callTool("word_count", { text: "a b c" })).toMatchObject({ ok: true, value: 3 });
    const result = await executor.callTool("wrod_count", { text: "a b" });
    if (result.ok) throw new Error("expected a failure");
    expect({ code: result.error.code, message: result.error.message }).toMatchInlineSnapshot(`
      {
        "code": "TOOL_NOT_FOUND",
        "message": "Python tool "wrod_count" is unavailable: tools.json tools[3]: function "wrod_count" not found in tools/text_tools.py; did you mean "word_count"?",
      }
    `);
    expect(logger.warnings).toMatchInlineSnapshot(`
      [
        "Python tool "wrod_count" left out: tools.json tools[3]: function "wrod_count" not found in tools/text_tools.py; did you mean "word_count"?",
      ]
    `);
    expect(executor.configStatus().unavailableTools).toEqual([
      { name: "wrod_count", plugin: "python", source: { file: "tools.json", path: "tools[3]" }, error: result.error },
    ]);
  });

  it("fails alone when its function's schema cannot be derived, with TOOL_FAILED naming the entry", async () => {
    const project = pythonProject([{ name: "double", function: "mixed_tools.py:double" }, { name: "largest", function: "mixed_tools.py:largest" }]);
    project.write("tools/mixed_tools.py", "def double(x: int) -> int:\n    return 2 * x\n\n\nlargest = max  # a builtin: Python keeps no signature for it\n");
    const executor = await startExecutor(project);
    expect(await executor.callTool("double", { x: 21 })).toMatchObject({ ok: true, value: 42 });
    const result = await executor.callTool("largest", {});
    if (result.ok) throw new Error("expected a failure");
    expect({ code: result.error.code, message: result.error.message }).toMatchInlineSnapshot(`
      {
        "code": "TOOL_FAILED",
        "message": "Python tool "largest" is unavailable: tools.json tools[1]: tools/mixed_tools.py: Cannot derive a schema for largest: no signature found for builtin <built-in function max>",
      }
    `);
  });

  it("leaves out one marked function of a pythonModules file whose schema cannot be derived, and serves the others", async () => {
    const logger = createMemoryLogger();
    const project = discoveringProject(["mixed_marks.py"]);
    project.write(
      "tools/mixed_marks.py",
      'from toolexec import tool\n\n\n@tool\ndef double(x: int) -> int:\n    return 2 * x\n\n\n@tool\ndef broken(x: int) -> int:\n    return x\n\n\nbroken.__signature__ = "not a signature"\n',
    );
    const executor = await startExecutor(project, { logger });
    expect((await executor.listTools()).map((tool) => tool.name)).toContain("double");
    expect(await executor.callTool("double", { x: 4 })).toMatchObject({ ok: true, value: 8 });
    const result = await executor.callTool("broken", { x: 1 });
    if (result.ok) throw new Error("expected a failure");
    expect({ code: result.error.code, message: result.error.message }).toMatchInlineSnapshot(`
      {
        "code": "TOOL_FAILED",
        "message": "Python tool "broken" is unavailable: tools/mixed_marks.py:9: Cannot derive a schema for broken: unexpected object 'not a signature' in __signature__ attribute",
      }
    `);
    expect(executor.configStatus().unavailableTools.map((tool) => tool.name)).toEqual(["broken"]);
  });

  it("with strict: true, fails start-up with CONFIG_INVALID naming the entry", async () => {
    const project = projectWithTypo();
    const error = await createExecutor({ root: project.root, watch: false, logDir: false, logger: createMemoryLogger(), strict: true }).catch((caught: unknown) => caught);
    if (!isConfigError(error)) throw error;
    expect(error.issues).toEqual([
      { file: "tools.json", path: "tools[3]", message: 'Python tool "wrod_count" is unavailable: function "wrod_count" not found in tools/text_tools.py; did you mean "word_count"? (strict: true)' },
    ]);
  });

  it("lists nothing unavailable and starts under strict when every entry resolves", async () => {
    const executor = await startExecutor(pythonProject(textTools("word_count", "echo")), { strict: true });
    expect(executor.configStatus().unavailableTools).toEqual([]);
  });
});
