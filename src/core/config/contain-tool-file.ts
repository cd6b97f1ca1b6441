/**
 * Use-time containment of a file under `tools/` (a script to spawn, a Python module to import): its
 * real path must lie inside the real `tools/` folder, which must itself lie inside the real project
 * root. Plugins check it right before they use the file, not only at load, because the file (or
 * `tools/` itself) may be swapped for a symlink leading elsewhere after load. Using the real path it
 * returns (not the configured one) leaves no window for a link swapped in between.
 */
import { realpath } from "node:fs/promises";
import path from "node:path";
import { isInside } from "./check-tool-paths.js";

export type ToolFileContainment =
  | { ok: true; realPath: string }
  /** The file, or `tools/`, does not resolve to anything (a dangling link included). */
  | { ok: false; problem: "missing" }
  /** `tools/` itself now leads outside the project. */
  | { ok: false; problem: "tools-outside-project"; realPath: string; realTools: string }
  /** The file now leads outside `tools/`. */
  | { ok: false; problem: "outside-tools"; realPath: string };

async function realPathOrUndefined(target: string): Promise<string | undefined> {
  try {
    return await realpath(target);
  } catch {
    return undefined;
  }
}

/**
 * @example
 * const contained = await containToolFile("/project/tools/report.py", "/project");
 * if (contained.ok) spawn(contained.realPath);
 */
export async function containToolFile(file: string, root: string): Promise<ToolFileContainment> {
  const [realRoot, realTools, realPath] = await Promise.all([realPathOrUndefined(root), realPathOrUndefined(path.join(root, "tools")), realPathOrUndefined(file)]);
  if (realPath === undefined || realTools === undefined) return { ok: false, problem: "missing" };
  if (!isInside(realRoot ?? root, realTools)) return { ok: false, problem: "tools-outside-project", realPath, realTools };
  if (!isInside(realTools, realPath)) return { ok: false, problem: "outside-tools", realPath };
  return { ok: true, realPath };
}
