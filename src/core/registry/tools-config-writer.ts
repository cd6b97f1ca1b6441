/**
 * The registry's write path for tools.json: every write runs in the project's sequential queue,
 * re-reads the file, refuses when the caller's tag no longer matches (`CONFLICT`), builds the new
 * text with only the one entry changed, validates it with the load-time loader before anything
 * touches the disk (`INVALID_INPUT`), writes the script (if given) and then the file atomically,
 * and hands the change to `onWritten` (which applies it live) before resolving. Applying happens
 * after the write leaves the queue, so a burst of writes shares reloads.
 */
import path from "node:path";
import { ToolexecError } from "../errors/toolexec-error.js";
import { valueTag } from "./content-tag.js";
import { appendToolEntry, removeToolEntry, replaceToolEntry } from "./edit-tools-array.js";
import type { OwnedSection } from "../config/config-sections.js";
import type { ToolEntryFile } from "../config/tools-config-schema.js";
import { invalidInput } from "./invalid-input.js";
import { readToolsFile } from "./read-tools-file.js";
import { snapshotObject } from "./snapshot-object.js";
import { writeRegistryChange, type BuildEdit, type WriteTarget } from "./write-registry-change.js";

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

/** The entry named `name` and its tag: `TOOL_NOT_FOUND` without one, `CONFLICT` when its tag is not `ifMatch`. */
function findEntry(fileName: string, entries: ToolEntryFile[], name: unknown, ifMatch: string | undefined) {
  if (typeof name !== "string") throw invalidInput(`Expected a tool name as a string, got ${typeof name}`);
  const index = entries.findIndex((entry) => entry.name === name);
  if (index < 0) throw new ToolexecError("TOOL_NOT_FOUND", `No tool named "${name}" in ${fileName}`);
  const etag = valueTag(entries[index]);
  if (ifMatch !== undefined && ifMatch !== etag) {
    throw new ToolexecError("CONFLICT", `The tool "${name}" changed since it was read (its tag is ${etag}, the request expected ${ifMatch}): read it again and retry`, { details: { current: etag } });
  }
  return { index, etag };
}

/** A create's edit: the file's tag must match, and the name be free in tools.json and outside it. */
function appendEdit(options: ToolsConfigWriterOptions, entry: Record<string, unknown>, ifMatch: string | undefined): BuildEdit {
  const { fileName } = options;
  const name = String(entry.name);
  return (current) => {
    if (ifMatch !== undefined && ifMatch !== current.etag) {
      throw new ToolexecError("CONFLICT", `${fileName} changed since it was read (its tag is ${current.etag}, the request expected ${ifMatch}): read it again and retry`, { details: { current: current.etag } });
    }
    if (current.entries.some((existing) => existing.name === entry.name)) {
      throw new ToolexecError("CONFLICT", `A tool named "${name}" already exists in ${fileName}; choose another name, or replace it`, { details: { reason: "exists" } });
    }
    // Another source's tool (MCP, saved, built-in): the registry cannot replace it.
    if (typeof entry.name === "string" && options.isNameTaken(entry.name)) {
      throw new ToolexecError("CONFLICT", `A tool named "${name}" already exists outside ${fileName} (an MCP, saved or built-in tool); choose another name`, { details: { reason: "exists" } });
    }
    return { text: appendToolEntry(current.text, entry), entry };
  };
}

/** An update's edit: a JSON merge patch of the entry's top-level keys (`null` removes one); the name stays. */
function patchEdit(fileName: string, name: string, patch: Record<string, unknown>, ifMatch: string | undefined): BuildEdit {
  return (current) => {
    const { index, etag } = findEntry(fileName, current.entries, name, ifMatch);
    if ("name" in patch && patch.name !== name) throw invalidInput(`A patch may not change "name" (got ${JSON.stringify(patch.name)}); to rename a tool, remove it and create the new one`);
    const entry: Record<string, unknown> = { ...(current.entries[index] as Record<string, unknown>) };
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete entry[key];
      else entry[key] = value;
    }
    return { text: replaceToolEntry(current.text, index, entry), entry, entryBefore: etag };
  };
}

/**
 * @example
 * const writer = createToolsConfigWriter({ root, fileName: "tools.json", isNameTaken: () => false, onWritten: async () => {} });
 * await writer.create({ name: "greet", description: "Say hello", runtime: "shell", script: "greet.sh", inputSchema: { type: "object" } }, { script: "echo hi\n" });
 */
export function createToolsConfigWriter(options: ToolsConfigWriterOptions): ToolsConfigWriter {
  const { fileName } = options;
  const target: WriteTarget = { options, absolutePath: path.resolve(options.root, fileName) };
  return {
    async read() {
      const { etag, entries } = await readToolsFile(target.absolutePath, fileName);
      return { etag, tools: entries.map((entry) => ({ name: entry.name, etag: valueTag(entry), entry })) };
    },
    create(rawEntry, writeOptions = {}) {
      const entry = snapshotObject(rawEntry, "a tool entry");
      return writeRegistryChange(target, "create", String(entry.name), appendEdit(options, entry, writeOptions.ifMatch), writeOptions);
    },
    replace(name, rawEntry, writeOptions = {}) {
      const entry = snapshotObject(rawEntry, "a tool entry");
      return writeRegistryChange(target, "replace", name, (current) => {
        const { index, etag } = findEntry(fileName, current.entries, name, writeOptions.ifMatch);
        if (entry.name !== name) throw invalidInput(`Expected the entry's "name" to be "${name}", got ${JSON.stringify(entry.name)}; to rename a tool, remove it and create the new one`);
        return { text: replaceToolEntry(current.text, index, entry), entry, entryBefore: etag };
      }, writeOptions);
    },
    update(name, rawPatch, writeOptions = {}) {
      const patch = snapshotObject(rawPatch, "a patch");
      return writeRegistryChange(target, "update", name, patchEdit(fileName, name, patch, writeOptions.ifMatch), writeOptions);
    },
    remove(name, writeOptions = {}) {
      return writeRegistryChange(target, "remove", name, (current) => {
        const { index, etag } = findEntry(fileName, current.entries, name, writeOptions.ifMatch);
        return { text: removeToolEntry(current.text, index), entryBefore: etag };
      }, {});
    },
  };
}
