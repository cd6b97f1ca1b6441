/** tools.json read for a registry write: its text, its tag, and its entries (the file must still exist and hold a "tools" array). */
import { readFile } from "node:fs/promises";
import { ToolexecError } from "../errors/toolexec-error.js";
import type { ToolEntryFile } from "../config/tools-config-schema.js";
import { contentTag } from "./content-tag.js";

/** tools.json as it is on disk now. */
export interface ToolsFile {
  text: string;
  /** The file's tag (for `ifMatch` on a create). */
  etag: string;
  entries: ToolEntryFile[];
}

/** Read `absolutePath` (`fileName` in messages): `CONFIG_MISSING` when it is gone, `CONFIG_INVALID` when it is not JSON with a "tools" array. */
export async function readToolsFile(absolutePath: string, fileName: string): Promise<ToolsFile> {
  let bytes: Buffer;
  try {
    bytes = await readFile(absolutePath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    throw new ToolexecError("CONFIG_MISSING", `${fileName} was removed from the project; create it again ({ "tools": [] }) before writing through the registry`);
  }
  const text = bytes.toString("utf8");
  let tools: unknown;
  try {
    tools = (JSON.parse(text) as { tools?: unknown }).tools;
  } catch (error) {
    throw new ToolexecError("CONFIG_INVALID", `${fileName} on disk is not valid JSON (${(error as Error).message}); fix it before writing through the registry`);
  }
  if (!Array.isArray(tools)) throw new ToolexecError("CONFIG_INVALID", `${fileName} on disk has no "tools" array; fix it before writing through the registry`);
  return { text, etag: contentTag(bytes), entries: tools as ToolEntryFile[] };
}
