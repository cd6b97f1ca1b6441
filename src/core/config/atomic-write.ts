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
export function temporaryPathFor(target: string): string {
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
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Remove the temp files a killed writer left next to `target` (those of processes that no longer
 * run); a crash mid-write leaves one behind, and they would pile up.
 *
 * @example
 * await removeStaleTemporaryFiles("/project/tools.json");
 */
export async function removeStaleTemporaryFiles(target: string): Promise<void> {
  const prefix = `.${path.basename(target)}.`;
  let names: string[];
  try {
    names = await readdir(path.dirname(target));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const match = /^(\d+)\.[0-9a-f]{8}\.tmp$/.exec(name.slice(prefix.length));
    if (match && Number(match[1]) !== process.pid && !isAlive(Number(match[1]))) await rm(path.join(path.dirname(target), name), { force: true });
  }
}
