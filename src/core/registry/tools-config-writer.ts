/**
 * The registry's write path for tools.json: every write runs in the project's sequential queue,
 * re-reads the file, refuses when the caller's tag no longer matches (`CONFLICT`), builds the new
 * text with only the one entry changed, validates it with the load-time loader before anything
 * touches the disk (`INVALID_INPUT`), writes the script (if given) and then the file atomically,
 * and hands the change to `onWritten` (which applies it live) before resolving. Applying happens
 * after the write leaves the queue, so a burst of writes shares reloads.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { formatConfigIssues } from "../errors/config-error.js";
import { ToolexecError } from "../errors/toolexec-error.js";
import { removeStaleTemporaryFiles, writeFileAtomic } from "../files/atomic-write.js";
import { contentTag, valueTag } from "./content-tag.js";
import { describeValue } from "../json/describe-value.js";
import { appendToolEntry, removeToolEntry, replaceToolEntry } from "./edit-tools-array.js";
import type { OwnedSection } from "../config/config-sections.js";
import { loadToolsConfig } from "../config/load-tools-config.js";
import type { ToolEntryFile } from "../config/tools-config-schema.js";
import { checkScriptContent, scriptLabel, writeToolScript } from "./write-tool-script.js";
import { enqueueProjectWrite } from "../files/write-queue.js";

/** One tools.json entry as written, with its own tag (for `ifMatch` on that entry). */
export interface RegisteredEntry {
  name: string;
  etag: string;
  entry: ToolEntryFile;
}

/** tools.json as read: the file's tag (for `ifMatch` on a create) and its entries in order. */
export interface RegistrySnapshot {
  etag: string;
  tools: RegisteredEntry[];
}

/** What a registry write did: enough for an audit line. */
export interface RegistryChange {
  action: "create" | "replace" | "update" | "remove";
  tool: string;
  /** The file's tag before and after the write. */
  before: string;
  after: string;
  /** The entry after the write; absent after `remove`. */
  entry?: RegisteredEntry;
  /** The tag of the entry before the write; absent after `create`. */
  entryBefore?: string;
  /** The script written with the entry, relative to the project (`tools/…`). */
  script?: string;
}

export interface RegistryWriteOptions {
  /** Refuse with `CONFLICT` unless the tag matches: the entry's tag (replace, update, remove) or the file's (create). */
  ifMatch?: string;
  /** The script's content, written under tools/ at the entry's `script` (or its function's module) path. */
  script?: string;
}

export interface ToolsConfigWriterOptions {
  root: string;
  /** tools.json's path relative to root. */
  fileName: string;
  /** The plugins' sections: their keys of tools.json are checked with a write as at load. */
  sections?: readonly OwnedSection[];
  /** A tool of another source already has this name (an MCP tool, a saved tool). */
  isNameTaken(name: string): boolean;
  /** About to write these files (absolute paths) with content of these tags. */
  onWriting(files: ReadonlyArray<{ path: string; tag: string }>): void;
  /** The files hold the change: apply it before the write resolves. */
  onWritten(change: RegistryChange): Promise<void>;
}

export interface ToolsConfigWriter {
  read(): Promise<RegistrySnapshot>;
  create(entry: unknown, options?: RegistryWriteOptions): Promise<RegistryChange>;
  replace(name: string, entry: unknown, options?: RegistryWriteOptions): Promise<RegistryChange>;
  /** A JSON merge patch of the entry's top-level keys: `null` removes a key. */
  update(name: string, patch: unknown, options?: RegistryWriteOptions): Promise<RegistryChange>;
  remove(name: string, options?: Omit<RegistryWriteOptions, "script">): Promise<RegistryChange>;
}

const invalid = (message: string, details?: Record<string, unknown>) => new ToolexecError("INVALID_INPUT", message, details ? { details } : {});

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}

/** A JSON copy of `value` (nothing the caller changes later, no getters, no prototypes). */
function snapshotObject(value: unknown, what: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw invalid(`Expected ${what} as a JSON object, got ${describeValue(value)}`);
  try {
    return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  } catch (error) {
    throw invalid(`Expected ${what} of plain JSON data: ${(error as Error).message}`);
  }
}

function scriptPathOf(entry: Record<string, unknown>): string | undefined {
  if (typeof entry.script === "string") return entry.script;
  if (typeof entry.function === "string" && entry.function.includes(":")) return entry.function.slice(0, entry.function.lastIndexOf(":"));
  return undefined;
}

/**
 * @example
 * const writer = createToolsConfigWriter({ root, fileName: "tools.json", isNameTaken: () => false, onWritten: async () => {} });
 * await writer.create({ name: "greet", description: "Say hello", runtime: "shell", script: "greet.sh", inputSchema: { type: "object" } }, { script: "echo hi\n" });
 */
export function createToolsConfigWriter(options: ToolsConfigWriterOptions): ToolsConfigWriter {
  const { root, fileName } = options;
  const absolutePath = path.resolve(root, fileName);
  /** Temp files of writers killed mid-write, removed before this writer's first write. */
  let staleRemoved: Promise<void> | undefined;

  const readText = async () => {
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
  };

  const validate = async (next: string, current: string) => {
    const checked = await loadToolsConfig(root, fileName, Buffer.from(next, "utf8"), options.sections);
    if (checked.status === "ok") return;
    const before = await loadToolsConfig(root, fileName, Buffer.from(current, "utf8"), options.sections);
    if (before.status !== "ok") {
      throw new ToolexecError("CONFIG_INVALID", `${fileName} on disk is invalid; fix it before writing through the registry:\n${formatConfigIssues(before.issues)}`, { details: { issues: before.issues } });
    }
    throw invalid(formatConfigIssues(checked.issues), { issues: checked.issues });
  };

  const find = (entries: ToolEntryFile[], name: unknown, ifMatch: string | undefined) => {
    if (typeof name !== "string") throw invalid(`Expected a tool name as a string, got ${typeof name}`);
    const index = entries.findIndex((entry) => entry.name === name);
    if (index < 0) throw new ToolexecError("TOOL_NOT_FOUND", `No tool named "${name}" in ${fileName}`);
    const etag = valueTag(entries[index]);
    if (ifMatch !== undefined && ifMatch !== etag) {
      throw new ToolexecError("CONFLICT", `The tool "${name}" changed since it was read (its tag is ${etag}, the request expected ${ifMatch}): read it again and retry`, { details: { current: etag } });
    }
    return { index, etag };
  };

  const write = async (
    action: RegistryChange["action"],
    name: string,
    build: (current: { text: string; etag: string; entries: ToolEntryFile[] }) => { text: string; entry?: Record<string, unknown>; entryBefore?: string },
    writeOptions: RegistryWriteOptions,
  ): Promise<RegistryChange> => {
    const change = await enqueueProjectWrite(root, async () => {
      staleRemoved ??= removeStaleTemporaryFiles(absolutePath);
      await staleRemoved;
      const current = await readText();
      const built = build(current);
      const scriptPath = built.entry && writeOptions.script !== undefined ? scriptPathOf(built.entry) : undefined;
      if (built.entry && writeOptions.script !== undefined) {
        if (scriptPath === undefined) throw invalid('Expected the entry to name its script ("script" or "function") when script content is given');
        const problem = checkScriptContent(root, scriptPath, writeOptions.script);
        if (problem) throw invalid(`Cannot write the script ${scriptLabel(scriptPath)}: ${problem}`);
      }
      await validate(built.text, current.text);
      const after = contentTag(built.text);
      const scriptFile = scriptPath === undefined ? undefined : path.resolve(root, "tools", scriptPath);
      options.onWriting([{ path: absolutePath, tag: after }, ...(scriptFile === undefined ? [] : [{ path: scriptFile, tag: contentTag(writeOptions.script!) }])]);
      if (scriptPath !== undefined) await writeToolScript(root, scriptPath, writeOptions.script!);
      await writeFileAtomic(absolutePath, built.text);
      const entry = built.entry as ToolEntryFile | undefined;
      const made: RegistryChange = {
        action,
        tool: name,
        before: current.etag,
        after,
        ...(entry ? { entry: { name: entry.name, etag: valueTag(entry), entry } } : {}),
        ...(built.entryBefore === undefined ? {} : { entryBefore: built.entryBefore }),
        ...(scriptPath === undefined ? {} : { script: path.posix.join("tools", scriptPath) }),
      };
      return made;
    });
    // Applied outside the queue: writes queued meanwhile go on, and their reloads coalesce.
    await options.onWritten(change);
    return change;
  };

  return {
    async read() {
      const { etag, entries } = await readText();
      return { etag, tools: entries.map((entry) => ({ name: entry.name, etag: valueTag(entry), entry })) };
    },
    create(rawEntry, writeOptions = {}) {
      const entry = snapshotObject(rawEntry, "a tool entry");
      const name = String(entry.name);
      return write("create", name, (current) => {
        if (writeOptions.ifMatch !== undefined && writeOptions.ifMatch !== current.etag) {
          throw new ToolexecError("CONFLICT", `${fileName} changed since it was read (its tag is ${current.etag}, the request expected ${writeOptions.ifMatch}): read it again and retry`, { details: { current: current.etag } });
        }
        if (current.entries.some((existing) => existing.name === entry.name)) {
          throw new ToolexecError("CONFLICT", `A tool named "${name}" already exists in ${fileName}; choose another name, or replace it`, { details: { reason: "exists" } });
        }
        // Another source's tool (MCP, saved, built-in): the registry cannot replace it.
        if (typeof entry.name === "string" && options.isNameTaken(entry.name)) {
          throw new ToolexecError("CONFLICT", `A tool named "${name}" already exists outside ${fileName} (an MCP, saved or built-in tool); choose another name`, { details: { reason: "exists" } });
        }
        return { text: appendToolEntry(current.text, entry), entry };
      }, writeOptions);
    },
    replace(name, rawEntry, writeOptions = {}) {
      const entry = snapshotObject(rawEntry, "a tool entry");
      return write("replace", name, (current) => {
        const { index, etag } = find(current.entries, name, writeOptions.ifMatch);
        if (entry.name !== name) throw invalid(`Expected the entry's "name" to be "${name}", got ${JSON.stringify(entry.name)}; to rename a tool, remove it and create the new one`);
        return { text: replaceToolEntry(current.text, index, entry), entry, entryBefore: etag };
      }, writeOptions);
    },
    update(name, rawPatch, writeOptions = {}) {
      const patch = snapshotObject(rawPatch, "a patch");
      return write("update", name, (current) => {
        const { index, etag } = find(current.entries, name, writeOptions.ifMatch);
        if ("name" in patch && patch.name !== name) throw invalid(`A patch may not change "name" (got ${JSON.stringify(patch.name)}); to rename a tool, remove it and create the new one`);
        const entry: Record<string, unknown> = { ...(current.entries[index] as Record<string, unknown>) };
        for (const [key, value] of Object.entries(patch)) {
          if (value === null) delete entry[key];
          else entry[key] = value;
        }
        return { text: replaceToolEntry(current.text, index, entry), entry, entryBefore: etag };
      }, writeOptions);
    },
    remove(name, writeOptions = {}) {
      return write("remove", name, (current) => {
        const { index, etag } = find(current.entries, name, writeOptions.ifMatch);
        return { text: removeToolEntry(current.text, index), entryBefore: etag };
      }, {});
    },
  };
}
