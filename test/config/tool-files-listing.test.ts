/**
 * Loading lists tools/ once, and a script that is a regular file directly in it skips its own
 * stat and realpath. The result must be the same as the per-script checks give for every kind of
 * script path: regular files, links inside and outside, dangling links, folders, odd spellings.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkScriptPath, resolveProjectPaths } from "../../src/core/config/check-tool-paths.js";
import { createTempProject } from "../helpers/temp-project.js";

describe("checkScriptPath with tools/ listed", () => {
  it("gives what the per-script checks give, for every kind of script path", () => {
    const project = createTempProject();
    const outside = createTempProject();
    const tools = project.path("tools");
    writeFileSync(path.join(tools, "plain.sh"), "echo\n");
    writeFileSync(path.join(tools, "back\\slash.sh"), "echo\n");
    writeFileSync(path.join(tools, "~"), "echo\n");
    mkdirSync(path.join(tools, "folder"));
    writeFileSync(path.join(tools, "folder", "nested.sh"), "echo\n");
    writeFileSync(outside.path("tools/outside.sh"), "echo\n");
    symlinkSync("plain.sh", path.join(tools, "link-inside.sh"));
    symlinkSync(outside.path("tools/outside.sh"), path.join(tools, "link-outside.sh"));
    symlinkSync(outside.path("tools/missing.sh"), path.join(tools, "dangling-outside.sh"));
    symlinkSync("missing.sh", path.join(tools, "dangling-inside.sh"));
    const scripts = [
      "plain.sh", "back\\slash.sh", "~", "folder", "folder/nested.sh", "link-inside.sh", "link-outside.sh", "dangling-outside.sh",
      "dangling-inside.sh", "missing.sh", "./plain.sh", "folder/../plain.sh", "../tools.json", "/etc/passwd", "plain.sh\u0000",
    ];
    const listed = resolveProjectPaths(project.root, { listToolFiles: true });
    const unlisted = resolveProjectPaths(project.root);
    expect([...listed.toolFiles!].sort()).toEqual(["back\\slash.sh", "plain.sh", "~"]);
    for (const script of scripts) expect(checkScriptPath(listed, script), script).toEqual(checkScriptPath(unlisted, script));
  });

  it("lists nothing when tools/ cannot be read, and checks each script on its own", () => {
    const project = createTempProject();
    const paths = resolveProjectPaths(path.join(project.root, "no-such-folder"), { listToolFiles: true });
    expect(paths.toolFiles!.size).toBe(0);
    expect(checkScriptPath(paths, "a.sh").problem?.warning).toBe(true);
  });
});
