/**
 * Writes a script's content under tools/ for a registry write, with the config's path rules checked
 * at the moment of writing: a relative path inside tools/, no `..`, and no link (of the file or of
 * any folder on the way) leading outside tools/.
 */
import { mkdir, realpath } from "node:fs/promises";
import path from "node:path";
import { ToolexecError } from "../errors/toolexec-error.js";
import { writeFileAtomic } from "../files/atomic-write.js";
import { checkScriptPath, isInside, resolveProjectPaths } from "../config/check-tool-paths.js";

/** Largest script a registry write accepts. */
export const MAX_SCRIPT_BYTES = 1024 * 1024;

/** Problems with writing `content` at `tools/<relative>`, before anything is written. */
export function checkScriptContent(root: string, relative: string, content: unknown): string | undefined {
  if (typeof content !== "string") return `Expected the script's content as a string, got ${content === null ? "null" : typeof content}`;
  if (Buffer.byteLength(content, "utf8") > MAX_SCRIPT_BYTES) return `Expected a script of at most ${MAX_SCRIPT_BYTES} bytes, got ${Buffer.byteLength(content, "utf8")}`;
  const problem = checkScriptPath(resolveProjectPaths(root), relative).problem;
  return problem && !problem.warning ? problem.message : undefined;
}

/** A script path for messages: `tools/<relative>`, or the path as given when it is absolute (refused anyway). */
export function scriptLabel(relative: string): string {
  return path.isAbsolute(relative) ? relative : `tools/${relative}`;
}

/**
 * Write `content` at `tools/<relative>` atomically, after the caller has checked them with
 * `checkScriptContent` (the registry writer does, before validating the entry). Throws
 * `INVALID_INPUT` when the folder really leads outside tools/, checked right before the write
 * (links may have changed since validation).
 *
 * @example
 * await writeToolScript(root, "greet.sh", 'echo "{\\"hello\\": 1}"\n');
 */
export async function writeToolScript(root: string, relative: string, content: string): Promise<void> {
  const paths = resolveProjectPaths(root);
  const target = path.resolve(paths.toolsDir, relative);
  await mkdir(path.dirname(target), { recursive: true });
  const realFolder = await realpath(path.dirname(target));
  if (!isInside(await realpath(paths.toolsDir), realFolder)) {
    throw new ToolexecError("INVALID_INPUT", `Cannot write the script tools/${relative}: its folder links to ${realFolder}, outside tools/`);
  }
  // Renamed over the path itself: a link already there is replaced, never followed.
  await writeFileAtomic(path.join(realFolder, path.basename(target)), content, 0o755);
}
