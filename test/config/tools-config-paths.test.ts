/** Scripts stay inside tools/, working folders inside the project; a missing script only warns. */
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadProjectConfig } from "../../src/config.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { configErrorText, loadConfigError, projectWithOneTool, withoutRoot } from "./config-test-helpers.js";

/** Name a second temp folder `<outside>` in messages, so snapshots are stable. */
function withoutOutside(text: string, outside: string): string {
  return text.split(realpathSync(outside)).join("<outside>").split(outside).join("<outside>");
}

describe("script paths", () => {
  it("rejects a script that climbs out of tools/", async () => {
    expect(await configErrorText(projectWithOneTool({ script: "../x.py" }))).toMatchInlineSnapshot(`"tools.json:7:17 tools[0].script: Expected a path inside tools/, got "../x.py": scripts may not escape the tools folder"`);
  });

  it("rejects a script that climbs out after going in", async () => {
    expect(await configErrorText(projectWithOneTool({ script: "sub/../../x.py" }))).toMatchInlineSnapshot(`"tools.json:7:17 tools[0].script: Expected a path inside tools/, got "sub/../../x.py": scripts may not escape the tools folder"`);
  });

  it("rejects an absolute script path", async () => {
    expect(await configErrorText(projectWithOneTool({ script: "/usr/bin/env" }))).toMatchInlineSnapshot(`"tools.json:7:17 tools[0].script: Expected a path inside tools/, got "/usr/bin/env": scripts may not escape the tools folder"`);
  });

  it("rejects the tools folder itself", async () => {
    expect(await configErrorText(projectWithOneTool({ script: "." }))).toMatchInlineSnapshot(`"tools.json:7:17 tools[0].script: Expected a script file, got the folder tools/"`);
  });

  it("rejects a folder inside tools/", async () => {
    const project = projectWithOneTool({ script: "lib" });
    mkdirSync(project.path("tools/lib"));
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json:7:17 tools[0].script: Expected a script file, got the folder tools/lib/"`);
  });

  it("rejects a symlink inside tools/ that points to a folder outside it", async () => {
    const project = projectWithOneTool({ script: "linked" });
    symlinkSync(project.root, project.path("tools/linked"));
    const error = await loadConfigError(project);
    expect(error.issues).toMatchObject([{ path: "tools[0].script", message: expect.stringMatching(/^Expected a script inside tools\//) }]);
  });

  it("rejects a symlink inside tools/ that points outside it", async () => {
    const project = projectWithOneTool({ script: "linked.sh" });
    const outside = project.write("outside.sh", "#!/bin/sh\necho hi\n");
    symlinkSync(outside, project.path("tools/linked.sh"));
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json:7:17 tools[0].script: Expected a script inside tools/, but tools/linked.sh links to <root>/outside.sh outside it"`);
  });

  it("rejects a script under a symlinked folder that points outside tools/", async () => {
    const project = projectWithOneTool({ script: "lib/run.sh" });
    const outsideDir = project.path("elsewhere");
    mkdirSync(outsideDir);
    writeFileSync(path.join(outsideDir, "run.sh"), "#!/bin/sh\n");
    symlinkSync(outsideDir, project.path("tools/lib"));
    const error = await loadConfigError(project);
    expect(error.issues).toMatchObject([{ path: "tools[0].script" }]);
  });

  it("accepts a symlink that stays inside tools/", async () => {
    const project = projectWithOneTool({ script: "alias.sh" });
    symlinkSync(project.path("tools/echo.sh"), project.path("tools/alias.sh"));
    const config = await loadProjectConfig({ root: project.root });
    expect(config.entries.script[0]?.script).toBe(project.path("tools/alias.sh"));
  });

  it("accepts a project whose tools/ is itself a symlink", async () => {
    const project = createTempProject({ tools: { tools: [toolEntry("echo", "shell", "echo.sh")] } });
    const realTools = project.path("shared/real-tools");
    mkdirSync(realTools, { recursive: true });
    writeFileSync(path.join(realTools, "echo.sh"), "#!/bin/sh\ncat\n");
    rmSync(project.path("tools"), { recursive: true });
    symlinkSync(realTools, project.path("tools"));
    const config = await loadProjectConfig({ root: project.root });
    expect(config.entries.script[0]?.script).toBe(project.path("tools/echo.sh"));
    expect(config.warnings).toEqual([]);
  });

  it("accepts scripts in sub-folders and resolves them to absolute paths", async () => {
    const project = projectWithOneTool({ script: "sub/dir/run.sh" });
    project.write("tools/sub/dir/run.sh", "#!/bin/sh\n");
    const config = await loadProjectConfig({ root: project.root });
    expect(config.entries.script[0]).toMatchObject({ script: project.path("tools/sub/dir/run.sh"), scriptPath: "sub/dir/run.sh" });
  });

  it("rejects a project whose tools/ is a symlink to a folder outside the project", async () => {
    const project = createTempProject({ tools: { tools: [toolEntry("echo", "shell", "echo.sh")] } });
    const outside = createTempProject();
    outside.useFixtures("echo.sh");
    rmSync(project.path("tools"), { recursive: true });
    symlinkSync(outside.path("tools"), project.path("tools"));
    expect(withoutOutside(await configErrorText(project), outside.root)).toMatchInlineSnapshot(`"tools.json:2:12 tools: Expected tools/ inside the project, but it links to <outside>/tools: scripts may not live outside the project"`);
  });

  it("rejects a dangling symlink whose target is outside tools/, before the target exists", async () => {
    const project = projectWithOneTool({ script: "later.sh" });
    symlinkSync(project.path("not-yet-outside.sh"), project.path("tools/later.sh"));
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json:7:17 tools[0].script: Expected a script inside tools/, but tools/later.sh links to <root>/not-yet-outside.sh outside it (a link to a file that does not exist yet)"`);
  });

  it("only warns for a dangling symlink whose target is inside tools/", async () => {
    const project = projectWithOneTool({ script: "later.sh" });
    symlinkSync("not-yet.sh", project.path("tools/later.sh"));
    const config = await loadProjectConfig({ root: project.root });
    expect(config.warnings.map((warning) => warning.message)).toMatchInlineSnapshot(`
      [
        "Script not found: tools/later.sh (calls will fail with SCRIPT_MISSING until it exists)",
      ]
    `);
  });

  it("rejects control characters, NUL included, in a script path", async () => {
    const error = await loadConfigError(projectWithOneTool({ script: "echo.sh\u0000.py" }));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toMatchInlineSnapshot(`"tools.json:7:17 tools[0].script: Expected a script path without control characters, got "echo.sh\\u0000.py""`);
    expect(await configErrorText(projectWithOneTool({ script: "echo\n.sh" }))).toMatchInlineSnapshot(`"tools.json:7:17 tools[0].script: Expected a script path without control characters, got "echo\\n.sh""`);
  });

  it("rejects backslashes and a leading ~ in a script path", async () => {
    expect(await configErrorText(projectWithOneTool({ script: "sub\\echo.sh" }))).toMatchInlineSnapshot(`"tools.json:7:17 tools[0].script: Expected "/" as the folder separator in a script path, got "sub\\\\echo.sh": a backslash would be part of a file name"`);
    expect(await configErrorText(projectWithOneTool({ script: "~/echo.sh" }))).toMatchInlineSnapshot(`"tools.json:7:17 tools[0].script: Expected a script path relative to tools/, got "~/echo.sh": "~" is not expanded"`);
  });

  it("treats a missing script as a warning, not an error", async () => {
    const project = projectWithOneTool({ script: "not-yet.sh" });
    const config = await loadProjectConfig({ root: project.root });
    expect(config.entries.script.map((tool) => tool.name)).toEqual(["echo"]);
    expect(config.warnings).toEqual([{ file: "tools.json", path: "tools[0].script", line: 7, column: 17, message: expect.any(String) }]);
    expect(config.warnings.map((warning) => withoutRoot(warning.message, project.root))).toMatchInlineSnapshot(`
      [
        "Script not found: tools/not-yet.sh (calls will fail with SCRIPT_MISSING until it exists)",
      ]
    `);
  });
});

describe("cwd", () => {
  it("rejects a cwd that climbs out of the project", async () => {
    expect(await configErrorText(projectWithOneTool({ cwd: "../.." }))).toMatchInlineSnapshot(`"tools.json:11:14 tools[0].cwd: Expected a folder inside the project, got "../..""`);
  });

  it("rejects an absolute cwd outside the project", async () => {
    expect(await configErrorText(projectWithOneTool({ cwd: "/tmp" }))).toMatchInlineSnapshot(`"tools.json:11:14 tools[0].cwd: Expected a folder inside the project, got "/tmp""`);
  });

  it("rejects a cwd that is a symlink to a folder outside the project", async () => {
    const project = projectWithOneTool({ cwd: "data" });
    const outside = createTempProject();
    symlinkSync(outside.root, project.path("data"));
    expect(withoutOutside(await configErrorText(project), outside.root)).toMatchInlineSnapshot(`"tools.json:11:14 tools[0].cwd: Expected a folder inside the project, got "data" (it links to <outside>)"`);
  });

  it("rejects NUL, backslashes and ~ in a cwd", async () => {
    expect(await configErrorText(projectWithOneTool({ cwd: "data\u0000" }))).toMatchInlineSnapshot(`"tools.json:11:14 tools[0].cwd: Expected a cwd without control characters, got "data\\u0000""`);
    expect(await configErrorText(projectWithOneTool({ cwd: "..\\.." }))).toMatchInlineSnapshot(`"tools.json:11:14 tools[0].cwd: Expected "/" as the folder separator in a cwd, got "..\\\\..": a backslash would be part of a file name"`);
    expect(await configErrorText(projectWithOneTool({ cwd: "~" }))).toMatchInlineSnapshot(`"tools.json:11:14 tools[0].cwd: Expected a cwd relative to the project, got "~": "~" is not expanded"`);
  });

  it("defaults to the project root and resolves relative folders from it", async () => {
    const project = createTempProject({
      tools: { tools: [toolEntry("a", "shell", "echo.sh"), toolEntry("b", "shell", "echo.sh", { cwd: "data/in" })] },
    });
    project.useFixtures("echo.sh");
    const config = await loadProjectConfig({ root: project.root });
    expect(config.entries.script.map((tool) => tool.cwd)).toEqual([project.root, project.path("data/in")]);
  });
});

describe("interpreter", () => {
  it("rejects interpreter on a non-python runtime", async () => {
    expect(await configErrorText(projectWithOneTool({ interpreter: "python3" }))).toMatchInlineSnapshot(`"tools.json:11:22 tools[0].interpreter: "interpreter" applies to the python runtime only, got runtime "shell""`);
  });

  it("resolves an interpreter with a slash against the root and keeps a bare name for PATH", async () => {
    const project = createTempProject({
      tools: {
        defaults: { python: "python3.12" },
        tools: [toolEntry("a", "python", "echo.py"), toolEntry("b", "python", "echo.py", { interpreter: ".venv/bin/python" })],
      },
    });
    project.useFixtures("echo.py");
    const config = await loadProjectConfig({ root: project.root });
    expect(config.entries.script.map((tool) => tool.interpreter)).toEqual(["python3.12", project.path(".venv/bin/python")]);
  });

  it("defaults python tools to python3 and gives other runtimes no interpreter", async () => {
    const project = createTempProject({ tools: { tools: [toolEntry("a", "python", "echo.py"), toolEntry("b", "shell", "echo.sh")] } });
    project.useFixtures("echo.py", "echo.sh");
    const config = await loadProjectConfig({ root: project.root });
    expect(config.entries.script[0]?.interpreter).toBe("python3");
    expect(config.entries.script[1]).not.toHaveProperty("interpreter");
  });
});
