/**
 * Writes a file so that a reader, or a crash at any moment, sees either the old content or the new,
 * never a part: a temp file in the same folder (same file system, so the rename is atomic), fsynced,
 * renamed over the target, then the folder fsynced so the rename itself survives a power cut.
 */
import { randomBytes } from "node:crypto";
import { open, readdir, rename, rm } from "node:fs/promises";
import path from "node:path";

/**
 * The temp file's name: hidden, next to the target, ending in `.tmp` (the config watcher ignores it).
 * Unique per write, so two processes writing the same file never share one.
 */
function temporaryPathFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, "r");
  try {
    await handle.sync();
  } catch (error) {
    // Some file systems refuse fsync on a folder (EINVAL, EISDIR): the rename is still atomic.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EINVAL" && code !== "EISDIR" && code !== "EPERM") throw error;
  } finally {
    await handle.close();
  }
}

/**
 * Replace `target` with `content` atomically. The rename replaces a symlink at `target` itself,
 * never the file it points to.
 *
 * @example
 * await writeFileAtomic("/project/tools.json", '{ "tools": [] }\n');
 */
export async function writeFileAtomic(target: string, content: string | Uint8Array, mode = 0o644): Promise<void> {
  const temporary = temporaryPathFor(target);
  try {
    const handle = await open(temporary, "wx", mode);
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncFolder(path.dirname(target));
}

/** Whether process `pid` is alive (EPERM: alive, someone else's). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A temp file's name: `.<target's name>.<pid>.<8 hex>.tmp` (see {@link temporaryPathFor}). */
const TEMPORARY_NAME = /^\.(.+)\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/** Remove the temp files in `folder` of processes that no longer run, for the targets `belongs` accepts. */
async function removeStaleIn(folder: string, belongs: (targetName: string) => boolean): Promise<void> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return;
  }
  for (const name of names) {
    const match = TEMPORARY_NAME.exec(name);
    if (match && belongs(match[1]!) && Number(match[2]) !== process.pid && !isAlive(Number(match[2]))) await rm(path.join(folder, name), { force: true });
  }
}

/**
 * Remove the temp files a killed writer left next to `target` (those of processes that no longer
 * run); a crash mid-write leaves one behind, and they would pile up.
 *
 * @example
 * await removeStaleTemporaryFiles("/project/tools.json");
 */
export function removeStaleTemporaryFiles(target: string): Promise<void> {
  return removeStaleIn(path.dirname(target), (targetName) => targetName === path.basename(target));
}

/**
 * The same for every target in `folder`: a folder of files written one by one (saved tools), where
 * a writer killed writing one file leaves a temp file the next write of another must clear.
 *
 * @example
 * await removeStaleTemporaryFilesIn("/project/.toolexec/saved-tools");
 */
export function removeStaleTemporaryFilesIn(folder: string): Promise<void> {
  return removeStaleIn(folder, () => true);
}
