/**
 * One registry write, in the project's sequential queue: re-read tools.json, build the new text,
 * check the script and validate the text with the load-time loader before anything touches the disk,
 * write the script and then the file atomically, and hand the change to `onWritten` before resolving.
 */
import path from "node:path";
import { formatConfigIssues } from "../errors/config-error.js";
import { ToolexecError } from "../errors/toolexec-error.js";
import { removeStaleTemporaryFiles, writeFileAtomic } from "../files/atomic-write.js";
import { enqueueProjectWrite } from "../files/write-queue.js";
import { loadToolsConfig } from "../config/load-tools-config.js";
import type { ToolEntryFile } from "../config/tools-config-schema.js";
import { contentTag, valueTag } from "./content-tag.js";
import { invalidInput } from "./invalid-input.js";
import { readToolsFile, type ToolsFile } from "./read-tools-file.js";
import type { RegistryChange, RegistryWriteOptions, ToolsConfigWriterOptions } from "./tools-config-writer.js";
import { checkScriptContent, scriptLabel, writeToolScript } from "./write-tool-script.js";

/** The file a writer writes, and what it owns across writes. */
export interface WriteTarget {
  options: ToolsConfigWriterOptions;
  absolutePath: string;
  /** Temp files of writers killed mid-write, removed before this writer's first write. */
  staleRemoved?: Promise<void>;
}

/** The new text of tools.json, from the current one; throws to refuse the write. */
export type BuildEdit = (current: ToolsFile) => { text: string; entry?: Record<string, unknown>; entryBefore?: string };

/** Run one write in the queue, then apply it through `onWritten`. */
export async function writeRegistryChange(
  target: WriteTarget,
  action: RegistryChange["action"],
  name: string,
  build: BuildEdit,
  writeOptions: RegistryWriteOptions,
): Promise<RegistryChange> {
  const change = await enqueueProjectWrite(target.options.root, () => writeInQueue(target, action, name, build, writeOptions));
  // Applied outside the queue: writes queued meanwhile go on, and their reloads coalesce.
  await target.options.onWritten(change);
  return change;
}

async function writeInQueue(target: WriteTarget, action: RegistryChange["action"], name: string, build: BuildEdit, writeOptions: RegistryWriteOptions): Promise<RegistryChange> {
  const { options, absolutePath } = target;
  const { root } = options;
  target.staleRemoved ??= removeStaleTemporaryFiles(absolutePath);
  await target.staleRemoved;
  const current = await readToolsFile(absolutePath, options.fileName);
  const built = build(current);
  const scriptPath = built.entry && writeOptions.script !== undefined ? scriptPathOf(built.entry) : undefined;
  if (built.entry && writeOptions.script !== undefined) {
    if (scriptPath === undefined) throw invalidInput('Expected the entry to name its script ("script" or "function") when script content is given');
    const problem = checkScriptContent(root, scriptPath, writeOptions.script);
    if (problem) throw invalidInput(`Cannot write the script ${scriptLabel(scriptPath)}: ${problem}`);
  }
  await validate(options, built.text, current.text);
  const after = contentTag(built.text);
  const scriptFile = scriptPath === undefined ? undefined : path.resolve(root, "tools", scriptPath);
  options.onWriting([{ path: absolutePath, tag: after }, ...(scriptFile === undefined ? [] : [{ path: scriptFile, tag: contentTag(writeOptions.script!) }])]);
  if (scriptPath !== undefined) await writeToolScript(root, scriptPath, writeOptions.script!);
  await writeFileAtomic(absolutePath, built.text);
  const entry = built.entry as ToolEntryFile | undefined;
  return {
    action,
    tool: name,
    before: current.etag,
    after,
    ...(entry ? { entry: { name: entry.name, etag: valueTag(entry), entry } } : {}),
    ...(built.entryBefore === undefined ? {} : { entryBefore: built.entryBefore }),
    ...(scriptPath === undefined ? {} : { script: path.posix.join("tools", scriptPath) }),
  };
}

/** The new text must load as the file would; when the current one does not either, the file is the problem, not the write. */
async function validate({ root, fileName, sections }: ToolsConfigWriterOptions, next: string, current: string): Promise<void> {
  const checked = await loadToolsConfig(root, fileName, Buffer.from(next, "utf8"), sections);
  if (checked.status === "ok") return;
  const before = await loadToolsConfig(root, fileName, Buffer.from(current, "utf8"), sections);
  if (before.status !== "ok") {
    throw new ToolexecError("CONFIG_INVALID", `${fileName} on disk is invalid; fix it before writing through the registry:\n${formatConfigIssues(before.issues)}`, { details: { issues: before.issues } });
  }
  throw invalidInput(formatConfigIssues(checked.issues), { issues: checked.issues });
}

function scriptPathOf(entry: Record<string, unknown>): string | undefined {
  if (typeof entry.script === "string") return entry.script;
  if (typeof entry.function === "string" && entry.function.includes(":")) return entry.function.slice(0, entry.function.lastIndexOf(":"));
  return undefined;
}
