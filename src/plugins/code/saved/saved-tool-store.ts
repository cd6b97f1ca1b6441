/**
 * The saved tools of a project, one file per tool in `.toolexec/saved-tools/<name>.js`. Writes and
 * deletions go through the project's one write queue (shared with tools.json writes) and are atomic;
 * the folder's real path must stay inside the project at the moment of each write.
 */
import { mkdir, readdir, readFile, realpath, rm } from "node:fs/promises";
import path from "node:path";
import { removeStaleTemporaryFilesIn, writeFileAtomic } from "../../../core/files/atomic-write.js";
import { isInside } from "../../../core/config/check-tool-paths.js";
import { enqueueProjectWrite } from "../../../core/files/write-queue.js";
import { ToolexecError } from "../../../core/errors/toolexec-error.js";
import { formatSavedToolFile, parseSavedToolFile, type SavedTool } from "./saved-tool-file.js";

/** Where saved tools live, relative to the project root. */
export const SAVED_TOOLS_FOLDER = ".toolexec/saved-tools";
export const SAVED_TOOL_EXTENSION = ".js";

/** A file read from the folder: its definition and code as written, or why it cannot be read. */
export type SavedToolFileRead = { file: string; ok: true; definition: Record<string, unknown>; code: string } | { file: string; ok: false; message: string };

export interface SavedToolStore {
  /** The folder, absolute. */
  folder: string;
  /** Every `*.js` file of the folder, parsed; an absent folder has none. */
  readAll(): Promise<SavedToolFileRead[]>;
  write(tool: SavedTool): Promise<void>;
  /** False when there was no such file. */
  remove(name: string): Promise<boolean>;
}

export function createSavedToolStore(root: string): SavedToolStore {
  const folder = path.join(root, SAVED_TOOLS_FOLDER);
  const fileOf = (name: string) => path.join(folder, `${name}${SAVED_TOOL_EXTENSION}`);

  /** Temp files of writers killed mid-write, removed before this store's first write or removal. */
  let staleRemoved: Promise<void> | undefined;

  /** The folder by its real path, created if needed; refused when a link leads it outside the project. */
  const containedFolder = async (): Promise<string> => {
    await mkdir(folder, { recursive: true });
    const [realRoot, realFolder] = await Promise.all([realpath(root), realpath(folder)]);
    if (!isInside(realRoot, realFolder)) throw new ToolexecError("INVALID_INPUT", `Cannot write saved tools: ${SAVED_TOOLS_FOLDER} links to ${realFolder}, outside the project`);
    staleRemoved ??= removeStaleTemporaryFilesIn(realFolder);
    await staleRemoved;
    return realFolder;
  };

  return {
    folder,
    async readAll() {
      let names: string[];
      try {
        names = (await readdir(folder)).filter((name) => name.endsWith(SAVED_TOOL_EXTENSION) && !name.startsWith("."));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
        throw error;
      }
      return Promise.all(
        names.sort().map(async (name): Promise<SavedToolFileRead> => {
          const file = path.join(folder, name);
          try {
            const parsed = parseSavedToolFile(await readFile(file, "utf8"));
            return parsed.ok ? { file, ...parsed } : { file, ok: false, message: parsed.message };
          } catch (error) {
            return { file, ok: false, message: `Cannot read it: ${(error as Error).message}` };
          }
        }),
      );
    },
    write(tool) {
      return enqueueProjectWrite(root, async () => {
        const realFolder = await containedFolder();
        await writeFileAtomic(path.join(realFolder, path.basename(fileOf(tool.name))), formatSavedToolFile(tool));
      });
    },
    remove(name) {
      return enqueueProjectWrite(root, async () => {
        const realFolder = await containedFolder();
        const file = path.join(realFolder, path.basename(fileOf(name)));
        try {
          await rm(file);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
          throw error;
        }
        return true;
      });
    },
  };
}
