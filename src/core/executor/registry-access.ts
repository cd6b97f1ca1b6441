/**
 * The executor's registry writes (tools.json through the write queue): each is live when it
 * resolves, through a reload the watcher then does not repeat (own-writes.ts).
 */
import type { OwnedSection } from "../config/config-sections.js";
import type { ProjectConfig } from "../config/load-project-config.js";
import { snapshotObject } from "../registry/snapshot-object.js";
import type { ToolsConfigWriter, ToolsConfigWriterOptions } from "../registry/tools-config-writer.js";
import { ToolexecError } from "../errors/toolexec-error.js";
import type { Logger } from "../plugin-contract.js";
import type { OwnWrites } from "./own-writes.js";
import type { PluginHost } from "./plugin-host.js";
import type { Reloader } from "./reloader.js";

export interface RegistryAccessOptions {
  root: string;
  /** tools.json's name, or false when the executor runs without it. */
  toolsConfig: string | false;
  /** The sections the plugins own: a write keeps them valid. */
  sections: readonly OwnedSection[];
  host: PluginHost;
  /** The config in force. */
  config(): ProjectConfig;
  reloader: Reloader;
  ownWrites: OwnWrites;
  logger: Logger;
  /** Throws `EXECUTOR_CLOSED` for `action` after close. */
  ensureOpen(action: string): void;
}

/** The writer for `action`; throws `EXECUTOR_CLOSED` after close and `CONFIG_MISSING` without tools.json. */
export type RegistryAccess = (action: string) => ToolsConfigWriter;

export function createRegistryAccess(options: RegistryAccessOptions): RegistryAccess {
  const { host, logger, toolsConfig } = options;
  const inToolsConfig = (name: string) => {
    const { entries } = options.config();
    return entries.script.some((entry) => entry.name === name) || entries.python.some((entry) => entry.name === name);
  };
  const writer: ToolsConfigWriter | undefined =
    toolsConfig === false
      ? undefined
      : lazyToolsConfigWriter({
          root: options.root,
          fileName: toolsConfig,
          sections: options.sections,
          isNameTaken: (name) => host.tools.has(name) && !inToolsConfig(name),
          onWriting: (files) => options.ownWrites.expect(files),
          async onWritten() {
            const result = await options.reloader.reload();
            if (!result.ok) logger.warn(`A registry write was saved, but the config did not reload: ${result.error.message}`);
          },
        });
  return (action) => {
    options.ensureOpen(action);
    if (!writer) throw new ToolexecError("CONFIG_MISSING", `Cannot ${action}: the executor runs without tools.json (toolsConfig: false)`);
    return writer;
  };
}

/**
 * One writer, whose modules (editing, writing scripts) load at the first registry call rather than at
 * start. What the caller hands in is copied before that load, as the writer itself does: a change the
 * caller makes after the call never reaches the file.
 */
function lazyToolsConfigWriter(writerOptions: ToolsConfigWriterOptions): ToolsConfigWriter {
  let loaded: Promise<ToolsConfigWriter> | undefined;
  const load = () => (loaded ??= import("../registry/tools-config-writer.js").then(({ createToolsConfigWriter }) => createToolsConfigWriter(writerOptions)));
  return {
    read: async () => (await load()).read(),
    create: async (entry, writeOptions) => {
      const copy = snapshotObject(entry, "a tool entry");
      return (await load()).create(copy, writeOptions);
    },
    replace: async (name, entry, writeOptions) => {
      const copy = snapshotObject(entry, "a tool entry");
      return (await load()).replace(name, copy, writeOptions);
    },
    update: async (name, patch, writeOptions) => {
      const copy = snapshotObject(patch, "a patch");
      return (await load()).update(name, copy, writeOptions);
    },
    remove: async (name, writeOptions) => (await load()).remove(name, writeOptions),
  };
}
