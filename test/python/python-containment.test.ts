/**
 * Containment holds when a module is imported, not only at load: a module (or tools/ itself) that
 * leads outside the project's tools/ folder by then is refused with SCRIPT_NOT_ALLOWED and nothing
 * is imported. The outside modules write a marker (or count) when imported, which proves it.
 */
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "../helpers/temp-project.js";
import { isAlive, startExecutor } from "./python-test-helpers.js";

/** A module that records its import in `record` (appends a line), with a `greet` function marked as a tool. */
function recordingModule(record: string, greeting: string): string {
  return [
    "from toolexec import tool",
    `with open(${JSON.stringify(record)}, "a") as handle:`,
    '    handle.write("imported\\n")',
    "",
    "@tool",
    "def greet(name: str) -> str:",
    '    """Greet someone."""',
    `    return ${JSON.stringify(greeting)} + name`,
    "",
    "@tool",
    "def worker_pid() -> int:",
    '    """The worker\'s process id."""',
    "    import os",
    "    return os.getpid()",
    "",
  ].join("\n");
}

function imports(record: string): number {
  return existsSync(record) ? readFileSync(record, "utf8").trim().split("\n").length : 0;
}

/** `relative` in the project replaced by a symlink to `target`. */
function replaceWithLink(project: TempProject, relative: string, target: string): void {
  rmSync(project.path(relative), { recursive: true });
  symlinkSync(target, project.path(relative));
}

const asFunctionEntries = { tools: [{ name: "greet", function: "greeter.py:greet" }, { name: "worker_pid", function: "greeter.py:worker_pid" }] };
const asDiscovered = { tools: [], pythonModules: ["greeter.py"] };

describe("python module containment", () => {
  for (const [how, config] of [["named by function entries", asFunctionEntries], ["discovered with pythonModules", asDiscovered]] as const) {
    it(`refuses a module ${how} swapped for a link outside tools/ after load, importing nothing`, async () => {
      const project = createTempProject({ tools: config });
      const outside = createTempProject();
      project.write("tools/greeter.py", recordingModule(project.path("inside-imports"), "hello "));
      const marker = outside.path("outside-imported");
      outside.write("tools/greeter.py", recordingModule(marker, "pwned "));
      const executor = await startExecutor(project);
      expect(await executor.callTool("greet", { name: "ada" })).toMatchObject({ ok: true, value: "hello ada" });

      replaceWithLink(project, "tools/greeter.py", outside.path("tools/greeter.py"));
      const result = await executor.callTool("greet", { name: "ada" });
      if (result.ok) throw new Error("expected SCRIPT_NOT_ALLOWED");
      expect(result.error.code).toBe("SCRIPT_NOT_ALLOWED");
      expect(result.error.message.replace(outside.root, "<outside>")).toBe(
        'Python tool "greet" is unavailable: Refused to import tools/greeter.py: it now leads outside tools/, to <outside>/tools/greeter.py',
      );
      expect(existsSync(marker)).toBe(false);
    });
  }

  it("refuses to import a module into a fresh worker once tools/ itself leads outside the project, even with the file unchanged", async () => {
    const project = createTempProject({ tools: asFunctionEntries });
    const outside = createTempProject();
    const record = project.path("imports");
    project.write("tools/greeter.py", recordingModule(record, "hello "));
    const executor = await startExecutor(project);
    const pid = await executor.callTool("worker_pid", {});
    if (!pid.ok) throw new Error(pid.error.message);
    expect(imports(record)).toBe(1);

    // The same file (a hard link: same inode, size and time, so no edit is noticed) now reached
    // through a tools/ that leads outside the project; the warm worker dies.
    mkdirSync(outside.path("elsewhere"));
    linkSync(project.path("tools/greeter.py"), outside.path("elsewhere/greeter.py"));
    renameSync(project.path("tools"), project.path("tools-before"));
    symlinkSync(outside.path("elsewhere"), project.path("tools"));
    process.kill(pid.value as number, "SIGKILL");
    while (isAlive(pid.value as number)) await new Promise((resolve) => setTimeout(resolve, 5));

    const result = await executor.callTool("greet", { name: "ada" });
    if (result.ok) throw new Error("expected SCRIPT_NOT_ALLOWED");
    expect({ code: result.error.code, message: result.error.message.replace(outside.root, "<outside>") }).toEqual({
      code: "SCRIPT_NOT_ALLOWED",
      message: "Refused to import tools/greeter.py: tools/ now leads outside the project, to <outside>/elsewhere",
    });
    expect(imports(record)).toBe(1);
  });

  describe("modules a tool module imports from tools/", () => {
    /** A tool module importing its sibling `helper` (and a package `kit`), as it would from a script. */
    const usingHelper = [
      "import helper",
      "from kit import parts",
      "",
      "def greet(name: str) -> str:",
      '    """Greet someone."""',
      "    return helper.GREETING + parts.PUNCTUATION + name",
      "",
    ].join("\n");
    const greetEntry = { tools: [{ name: "greet", function: "greeter.py:greet" }] };
    const helperModule = (record: string, greeting: string) => `with open(${JSON.stringify(record)}, "a") as handle:\n    handle.write("imported\\n")\nGREETING = ${JSON.stringify(greeting)}\n`;

    it("imports a sibling module and a package inside tools/, also through a link that stays inside", async () => {
      const project = createTempProject({ tools: greetEntry });
      project.write("tools/greeter.py", usingHelper);
      project.write("tools/lib/real_helper.py", helperModule(project.path("helper-imports"), "hello"));
      symlinkSync(project.path("tools/lib/real_helper.py"), project.path("tools/helper.py"));
      project.write("tools/kit/__init__.py", "");
      project.write("tools/kit/parts.py", 'PUNCTUATION = ", "\n');
      const executor = await startExecutor(project);
      expect(await executor.callTool("greet", { name: "ada" })).toMatchObject({ ok: true, value: "hello, ada" });
      expect(imports(project.path("helper-imports"))).toBe(1);
    });

    it("refuses a sibling module that leads outside tools/, naming it, and runs none of its code", async () => {
      const project = createTempProject({ tools: greetEntry });
      const outside = createTempProject();
      const marker = outside.path("outside-imported");
      outside.write("helper.py", helperModule(marker, "pwned"));
      project.write("tools/greeter.py", usingHelper);
      symlinkSync(outside.path("helper.py"), project.path("tools/helper.py"));
      project.write("tools/kit/__init__.py", "");
      project.write("tools/kit/parts.py", 'PUNCTUATION = ", "\n');
      const executor = await startExecutor(project);
      const result = await executor.callTool("greet", { name: "ada" });
      if (result.ok) throw new Error("expected the import to be refused");
      expect(existsSync(marker)).toBe(false);
      expect(result.error.code).toBe("TOOL_FAILED");
      expect(result.error.message.replace(outside.root, "<outside>").replace(project.root, "<project>")).toBe(
        'Python tool "greet" is unavailable: tools/greeter.py:1: ImportError: Refused to import helper from <project>/tools/helper.py: it leads outside tools/, to <outside>/helper.py',
      );
    });

    it("refuses a package inside tools/ whose folder is a link outside it", async () => {
      const project = createTempProject({ tools: greetEntry });
      const outside = createTempProject();
      const marker = outside.path("kit-imported");
      outside.write("kit/__init__.py", `open(${JSON.stringify(marker)}, "w").close()\n`);
      outside.write("kit/parts.py", 'PUNCTUATION = "!"\n');
      project.write("tools/greeter.py", usingHelper);
      project.write("tools/helper.py", helperModule(project.path("helper-imports"), "hello"));
      symlinkSync(outside.path("kit"), project.path("tools/kit"));
      const executor = await startExecutor(project);
      const result = await executor.callTool("greet", { name: "ada" });
      if (result.ok) throw new Error("expected the import to be refused");
      expect(existsSync(marker)).toBe(false);
      expect(result.error.message.replace(outside.root, "<outside>").replace(project.root, "<project>")).toBe(
        'Python tool "greet" is unavailable: tools/greeter.py:2: ImportError: Refused to import kit from <project>/tools/kit/__init__.py: it leads outside tools/, to <outside>/kit/__init__.py',
      );
    });
  });
});
