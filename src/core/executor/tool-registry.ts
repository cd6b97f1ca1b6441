/**
 * The tool registry the plugin host keeps: every running plugin's tools by name, each with its
 * validators compiled on first use. A rebuild reuses the entries of tools that did not change.
 */
import { ToolexecError } from "../errors/toolexec-error.js";
import { formatJsonPath } from "../json/parse-json-document.js";
import type { Logger, ToolDefinition } from "../plugin-contract.js";
import { findUncheckedPatterns } from "../schema/find-unchecked-patterns.js";
import { isSimpleValidSchema } from "../schema/is-simple-valid-schema.js";
import type { RunningPlugin } from "./plugin-host.js";
import { registeredTool, type ToolSchemaValidators } from "./registered-tool.js";

export interface RegisteredTool extends ToolSchemaValidators {
  definition: ToolDefinition;
  owner: RunningPlugin;
}

/**
 * Schemas from plugins and MCP servers are not the user's to edit: a pattern the linear-time engine
 * cannot run leaves that keyword unchecked (the tool still works), with a warning naming the tool.
 */
function warnUncheckedPatterns(definition: ToolDefinition, plugin: string, logger: Logger): void {
  for (const key of ["inputSchema", "outputSchema"] as const) {
    const schema = definition[key];
    if (!schema || isSimpleValidSchema(schema)) continue;
    for (const problem of findUncheckedPatterns(schema)) {
      logger.warn(`Tool "${definition.name}" of plugin "${plugin}": ${formatJsonPath([key, ...problem.path])}: ${problem.message}; that keyword is left unchecked`);
    }
  }
}

/**
 * The registry of `plugins`' tools, reusing `previous`' entries of tools that did not change.
 * `strict` makes name conflicts throw instead of skipping the tool (with a warning); a schema ajv
 * cannot use never costs its tool (see `registeredTool`).
 */
export function buildRegistry(plugins: RunningPlugin[], previous: ReadonlyMap<string, RegisteredTool>, strict: boolean, logger: Logger): Map<string, RegisteredTool> {
  const registry = new Map<string, RegisteredTool>();
  for (const owner of plugins) {
    for (const definition of owner.instance.listTools()) {
      const clash = registry.get(definition.name);
      if (clash) {
        const source = (plugin: string, server: { name: string } | undefined) => `plugin "${plugin}"${server ? ` (server "${server.name}")` : ""}`;
        const message = `Tool name "${definition.name}" is served by both ${source(clash.owner.name, clash.definition.server)} and ${source(owner.name, definition.server)}; rename one of them`;
        if (strict) throw new ToolexecError("TOOL_NAME_CONFLICT", message, { details: { tool: definition.name, plugins: [clash.owner.name, owner.name] } });
        logger.warn(`${message} (keeping the first)`);
        continue;
      }
      const reused = previous.get(definition.name);
      if (reused && reused.definition === definition && reused.owner === owner) {
        registry.set(definition.name, reused);
        continue;
      }
      const registered = registeredTool(definition, owner, logger);
      warnUncheckedPatterns(definition, owner.name, logger);
      registry.set(definition.name, registered);
    }
  }
  return registry;
}
