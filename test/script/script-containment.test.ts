/**
 * Containment holds at call time: a script (or tools/ itself) re-pointed outside the project after
 * load is refused before any process starts. The outside scripts would create `marker` in the
 * project root if they ran, so its absence proves nothing was spawned.
 */
import { existsSync, mkdirSync, realpathSync, renameSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Executor, ExecutorEvents } from "../../src/index.js";
import { createTempProject, projectWith, startExecutor, toolEntry, type TempProject } from "./script-test-helpers.js";

/** A folder outside the project holding the marker-writing scripts. */
function outsideScripts(): TempProject {
  const outside = createTempProject();
  outside.useFixtures("touch-marker.py", "touch-marker.sh");
  return outside;
}

/** A project with one python and one shell tool, both harmless echo scripts. */
function echoProject(): TempProject {
  return projectWith([toolEntry("echo_py", "python", "echo.py"), toolEntry("echo_sh", "shell", "echo.sh")], ["echo.py", "echo.sh"]);
}

function replaceWithLink(project: TempProject, relative: string, target: string): void {
  rmSync(project.path(relative), { recursive: true, force: true });
  symlinkSync(target, project.path(relative));
}

/** Error text with the temp folders named, so snapshots are stable. */
function named(text: string, project: TempProject, outside: TempProject): string {
  let result = text;
  for (const [folder, name] of [[outside.root, "<outside>"], [project.root, "<root>"]] as const) {
    result = result.split(realpathSync(folder)).join(name).split(folder).join(name);
  }
  return result;
}

function nextEvent<Name extends keyof ExecutorEvents>(executor: Executor, event: Name, withinMs = 5_000): Promise<ExecutorEvents[Name]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${withinMs} ms`)), withinMs);
    const unsubscribe = executor.on(event, (payload) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(payload);
    });
  });
}

describe("script containment at call time", () => {
  it("refuses a python script swapped for a link outside tools/ after load, spawning nothing", async () => {
    const project = echoProject();
    const outside = outsideScripts();
    const executor = await startExecutor(project);
    expect(await executor.callTool("echo_py", { a: 1 })).toMatchObject({ ok: true, value: { a: 1 } });
    replaceWithLink(project, "tools/echo.py", outside.path("tools/touch-marker.py"));
    const result = await executor.callTool("echo_py", { a: 1 });
    expect(result.ok ? undefined : result.error.code).toBe("SCRIPT_NOT_ALLOWED");
    expect(result.ok ? undefined : named(result.error.message, project, outside)).toMatchInlineSnapshot(`"Refused to run tools/echo.py (tool "echo_py"): it now leads outside tools/, to <outside>/tools/touch-marker.py"`);
    expect(existsSync(project.path("marker"))).toBe(false);
  });

  it("refuses a shell script swapped for a link outside tools/ after load, spawning nothing", async () => {
    const project = echoProject();
    const outside = outsideScripts();
    const executor = await startExecutor(project);
    replaceWithLink(project, "tools/echo.sh", outside.path("tools/touch-marker.sh"));
    expect(await executor.callTool("echo_sh", {})).toMatchObject({ ok: false, error: { code: "SCRIPT_NOT_ALLOWED" } });
    expect(existsSync(project.path("marker"))).toBe(false);
  });

  it("refuses every script once tools/ itself is re-pointed outside the project", async () => {
    const project = echoProject();
    const outside = outsideScripts();
    // The outside folder has scripts under the names the tools use, so only containment stops them.
    outside.write("tools/echo.py", 'import os\nopen(os.path.join(os.environ["TOOLEXEC_ROOT"], "marker"), "w").close()\n');
    const executor = await startExecutor(project);
    renameSync(project.path("tools"), project.path("old-tools"));
    symlinkSync(outside.path("tools"), project.path("tools"));
    const result = await executor.callTool("echo_py", {});
    expect(result.ok ? undefined : named(result.error.message, project, outside)).toMatchInlineSnapshot(`"Refused to run tools/echo.py (tool "echo_py"): tools/ now leads outside the project, to <outside>/tools"`);
    expect(existsSync(project.path("marker"))).toBe(false);
  });

  it("refuses a script that was missing at load and later appears as a link outside tools/", async () => {
    const project = projectWith([toolEntry("later", "python", "later.py")], []);
    const outside = outsideScripts();
    const executor = await startExecutor(project);
    expect(await executor.callTool("later", {})).toMatchObject({ ok: false, error: { code: "SCRIPT_MISSING" } });
    symlinkSync(outside.path("tools/touch-marker.py"), project.path("tools/later.py"));
    expect(await executor.callTool("later", {})).toMatchObject({ ok: false, error: { code: "SCRIPT_NOT_ALLOWED" } });
    expect(existsSync(project.path("marker"))).toBe(false);
  });

  it("refuses a script under a sub-folder re-pointed outside tools/", async () => {
    const project = projectWith([toolEntry("nested", "python", "lib/touch-marker.py")], []);
    mkdirSync(project.path("tools/lib"));
    project.write("tools/lib/touch-marker.py", "print('inside')\n");
    const outside = outsideScripts();
    const executor = await startExecutor(project);
    expect(await executor.callTool("nested", {})).toMatchObject({ ok: true, value: "inside" });
    replaceWithLink(project, "tools/lib", outside.path("tools"));
    expect(await executor.callTool("nested", {})).toMatchObject({ ok: false, error: { code: "SCRIPT_NOT_ALLOWED" } });
    expect(existsSync(project.path("marker"))).toBe(false);
  });

  it("with watch on: reports config:error for the swap, and calls stay refused", async () => {
    const project = echoProject();
    const outside = outsideScripts();
    const executor = await startExecutor(project, { watch: true, reloadDebounceMs: 20 });
    const failed = nextEvent(executor, "config:error");
    replaceWithLink(project, "tools/echo.py", outside.path("tools/touch-marker.py"));
    expect(named((await failed).message, project, outside)).toMatchInlineSnapshot(`"tools.json:7:17 tools[0].script: Expected a script inside tools/, but tools/echo.py links to <outside>/tools/touch-marker.py outside it"`);
    expect(await executor.callTool("echo_py", {})).toMatchObject({ ok: false, error: { code: "SCRIPT_NOT_ALLOWED" } });
    expect(existsSync(project.path("marker"))).toBe(false);
    // The other tool, untouched, still runs on the last good config.
    expect(await executor.callTool("echo_sh", { b: 2 })).toMatchObject({ ok: true });
  });

  it("still runs a link that stays inside tools/, and a project whose tools/ links inside the project", async () => {
    const project = projectWith([toolEntry("alias", "python", "alias.py")], ["echo.py"]);
    symlinkSync(project.path("tools/echo.py"), project.path("tools/alias.py"));
    renameSync(project.path("tools"), project.path("shared-tools"));
    symlinkSync(path.join(project.root, "shared-tools"), project.path("tools"));
    const executor = await startExecutor(project);
    expect(await executor.callTool("alias", { c: 3 })).toMatchObject({ ok: true, value: { c: 3 } });
  });
});
