/**
 * The saved tools of a running code plugin: loaded from their folder at start, kept in memory,
 * changed through `saveTool`/`deleteSavedTool` (the file is written before the change is live) and, when the
 * executor watches, reloaded after hand edits and deletions. A file that stops being valid keeps
 * its last good version running, with a warning.
 */
import path from "node:path";
import type { FSWatcher } from "chokidar";
import { ToolexecError, isToolexecError } from "../../../core/errors/toolexec-error.js";
import type { Logger, PluginResult, ToolDefinition } from "../../../core/plugin-contract.js";
import { toolError } from "../../../core/tool-result.js";
import { checkSavedTool } from "./check-saved-tool.js";
import { DELETE_SAVED_TOOL_NAME, LIST_SAVED_TOOLS_NAME, SAVE_TOOL_NAME, SHOW_SAVED_TOOL_NAME, savedToolBuiltIns, savedToolDefinition } from "./saved-tool-definitions.js";
import type { SavedTool, SavedToolDefinition } from "./saved-tool-file.js";
import { SAVED_TOOLS_FOLDER, SAVED_TOOL_EXTENSION, createSavedToolStore } from "./saved-tool-store.js";

/** A saved tool in a listing. */
export type SavedToolSummary = Pick<SavedTool, "name" | "description" | "inputSchema" | "created" | "modified">;

/** Saved tools for hosts: the executor's `saveTool`, `listSavedTools`, `showSavedTool` and `deleteSavedTool`. */
export interface SavedToolsApi {
  /**
   * Save a code-mode program as a tool of its own (needs code execution enabled): checked like
   * tools.json (`INVALID_INPUT` lists every problem; nothing is written), written atomically to
   * `.toolexec/saved-tools/<name>.js`, and callable when the promise resolves. `overwrite` replaces a
   * saved tool of that name. See docs/saved-tools.md.
   *
   * @example
   * await executor.saveTool({ name: "double", description: "Twice a number", inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] }, code: "input.n * 2" });
   * await executor.callTool("double", { n: 21 }); // { ok: true, value: 42, ... }
   */
  saveTool(definition: SavedToolDefinition, options?: { overwrite?: boolean }): Promise<SavedTool>;
  /** The saved tools: `{ name, description, inputSchema, created, modified }` each. */
  listSavedTools(): Promise<SavedToolSummary[]>;
  /** One saved tool's whole definition with its code, or `undefined`. */
  showSavedTool(name: string): Promise<SavedTool | undefined>;
  /** Delete a saved tool (its file too); `false` when none has that name. */
  deleteSavedTool(name: string): Promise<boolean>;
}

export interface SavedToolsOptions {
  root: string;
  logger: Logger;
  watch: boolean;
  /** `codeExecution.allowSavingTools`: offer `save_tool` and `delete_saved_tool` to models. */
  allowSaving: boolean;
  maxCodeBytes: number;
  /** A saved tool's pipeline budget. */
  timeoutMs: number;
  /** Every tool in the registry now. */
  listTools(): readonly ToolDefinition[];
  /** The saved tools changed: the registry must hear it. */
  onChanged(): void;
}

export interface SavedTools {
  api: SavedToolsApi;
  definitions(): ToolDefinition[];
  get(name: string): SavedTool | undefined;
  /** Answers a call of one of the management tools; undefined for other names. */
  callBuiltIn(name: string, args: Record<string, unknown>): Promise<PluginResult> | undefined;
  close(): Promise<void>;
}

const WATCH_QUIET_MS = 60;

export async function createSavedTools(options: SavedToolsOptions): Promise<SavedTools> {
  const store = createSavedToolStore(options.root);
  const builtIns = savedToolBuiltIns(options.allowSaving);
  const builtInNames = new Set(builtIns.map((tool) => tool.name));
  let tools = new Map<string, SavedTool>();
  let definitions: ToolDefinition[] = [];
  const publish = (next: Map<string, SavedTool>) => {
    tools = next;
    definitions = [...next.values()].map((tool) => savedToolDefinition(tool, options.timeoutMs));
  };

  const nameTaken = (name: string, overwrite: boolean): string | undefined => {
    if (tools.has(name)) return overwrite ? undefined : `a saved tool named "${name}" exists; pass overwrite: true to replace it, or choose another name`;
    if (options.listTools().some((tool) => tool.name === name)) return `a tool named "${name}" exists; choose another name`;
    return undefined;
  };

  /** The folder's files as saved tools; an invalid file keeps the last good version of its tool. */
  const load = async (): Promise<Map<string, SavedTool>> => {
    const next = new Map<string, SavedTool>();
    for (const read of await store.readAll()) {
      const fileName = path.basename(read.file, SAVED_TOOL_EXTENSION);
      const where = `${SAVED_TOOLS_FOLDER}/${path.basename(read.file)}`;
      const checked = read.ok ? checkSavedTool({ ...read.definition, code: read.code }, { maxCodeBytes: options.maxCodeBytes, nameTaken: () => undefined }) : undefined;
      const problems = !read.ok ? [read.message] : checked && !checked.ok ? checked.problems : checked?.ok && checked.tool.name !== fileName ? [`name: Expected "${fileName}" (the file's name), got "${checked.tool.name}"`] : [];
      if (problems.length === 0 && read.ok && checked?.ok) {
        const stamp = (value: unknown) => (typeof value === "string" ? value : new Date(0).toISOString());
        next.set(fileName, { ...checked.tool, created: stamp(read.definition.created), modified: stamp(read.definition.modified) });
        continue;
      }
      const previous = tools.get(fileName);
      options.logger.warn(`Saved tool ${where} is invalid${previous ? "; keeping its last good version" : ""}:\n  ${problems.join("\n  ")}`);
      if (previous) next.set(fileName, previous);
    }
    return next;
  };
  publish(await load());

  const keyOf = (map: Map<string, SavedTool>) => JSON.stringify([...map.values()].sort((left, right) => (left.name < right.name ? -1 : 1)));
  const reload = async () => {
    const next = await load();
    if (keyOf(next) === keyOf(tools)) return;
    publish(next);
    options.onChanged();
  };

  let watcher: FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  if (options.watch) {
    const dotFolder = path.dirname(store.folder);
    const watched = (candidate: string) =>
      candidate === options.root || candidate === dotFolder || candidate === store.folder || (path.dirname(candidate) === store.folder && candidate.endsWith(SAVED_TOOL_EXTENSION));
    // Loaded here, not at start: an executor with `watch: false` never needs it.
    const { watch } = await import("chokidar");
    watcher = watch(options.root, { ignoreInitial: true, ignored: (candidate) => !watched(candidate), depth: 2, persistent: true });
    watcher.on("all", () => {
      if (closed) return;
      clearTimeout(timer);
      timer = setTimeout(() => void reload().catch((error: unknown) => options.logger.warn(`Could not reload saved tools: ${(error as Error).message}`)), WATCH_QUIET_MS);
    });
    watcher.on("error", (error) => options.logger.warn(`Saved-tools watcher error: ${(error as Error).message}`));
    await new Promise<void>((resolve) => watcher!.once("ready", () => resolve()));
  }

  const api: SavedToolsApi = {
    async saveTool(definition, saveOptions = {}) {
      const checked = checkSavedTool(definition, { maxCodeBytes: options.maxCodeBytes, nameTaken: (name) => nameTaken(name, saveOptions.overwrite === true) });
      if (!checked.ok) {
        throw new ToolexecError("INVALID_INPUT", `Cannot save the tool: ${checked.problems.join("; ")}`, { details: { problems: checked.problems } });
      }
      const now = new Date().toISOString();
      const saved: SavedTool = { ...checked.tool, created: tools.get(checked.tool.name)?.created ?? now, modified: now };
      await store.write(saved);
      publish(new Map([...tools, [saved.name, saved]]));
      options.onChanged();
      return saved;
    },
    listSavedTools: async () => [...tools.values()].map(({ name, description, inputSchema, created, modified }) => ({ name, description, inputSchema, created, modified })),
    showSavedTool: async (name) => tools.get(name),
    async deleteSavedTool(name) {
      if (!tools.has(name)) return false;
      await store.remove(name);
      const next = new Map(tools);
      next.delete(name);
      publish(next);
      options.onChanged();
      return true;
    },
  };

  const notFound = (name: unknown) => toolError("TOOL_NOT_FOUND", `No saved tool named ${JSON.stringify(name)}; list_saved_tools lists them`);
  const builtInCalls: Record<string, (args: Record<string, unknown>) => Promise<PluginResult>> = {
    [SAVE_TOOL_NAME]: async ({ overwrite, ...definition }) => {
      try {
        const saved = await api.saveTool(definition as SavedToolDefinition, { overwrite: overwrite === true });
        return { ok: true, value: { saved: saved.name, file: `${SAVED_TOOLS_FOLDER}/${saved.name}${SAVED_TOOL_EXTENSION}`, created: saved.created, modified: saved.modified } };
      } catch (error) {
        if (!isToolexecError(error)) return toolError("TOOL_FAILED", `Could not save the tool: ${(error as Error)?.message ?? String(error)}`);
        return toolError(error.code, error.message, error.details);
      }
    },
    [LIST_SAVED_TOOLS_NAME]: async () => ({ ok: true, value: { tools: await api.listSavedTools() } }),
    [SHOW_SAVED_TOOL_NAME]: async (args) => {
      const tool = await api.showSavedTool(String(args.name));
      return tool ? { ok: true, value: tool } : notFound(args.name);
    },
    [DELETE_SAVED_TOOL_NAME]: async (args) => ((await api.deleteSavedTool(String(args.name))) ? { ok: true, value: { deleted: args.name } } : notFound(args.name)),
  };

  return {
    api,
    definitions: () => [...builtIns, ...definitions],
    get: (name) => tools.get(name),
    callBuiltIn: (name, args) => (builtInNames.has(name) ? builtInCalls[name]!(args) : undefined),
    async close() {
      closed = true;
      clearTimeout(timer);
      await watcher?.close();
    },
  };
}
