/**
 * The tool registry the plugin host keeps: every running plugin's tools by name, each with its
 * validators compiled on first use. A rebuild reuses the entries of tools that did not change.
 */
import { ToolexecError } from "../errors/toolexec-error.js";
import type { Logger, ToolDefinition, ToolErrorInfo } from "../plugin-contract.js";
import { findUncheckedPatterns } from "../schema/find-unchecked-patterns.js";
import { isSimpleValidSchema } from "../schema/is-simple-valid-schema.js";
import { checkSchema, compileSchema, type CompiledValidator } from "../schema/schema-validator.js";
import type { RunningPlugin } from "./plugin-host.js";

export interface RegisteredTool {
  definition: ToolDefinition;
  owner: RunningPlugin;
  /** Compiled on first use: a registry of thousands of tools starts without compiling any. */
  inputValidator(): CompiledValidator;
  outputValidator(): CompiledValidator | undefined;
}

function registerTool(definition: ToolDefinition, owner: RunningPlugin): RegisteredTool {
  const { inputSchema, outputSchema } = definition;
  // Two closures over one scope, not a `lazy` pair: a registry of 10,000 tools holds one per tool.
  let input: CompiledValidator | undefined;
  let output: CompiledValidator | undefined;
  return {
    definition,
    owner,
    inputValidator: () => (input ??= compileSchema(inputSchema)),
    outputValidator: () => (outputSchema ? (output ??= compileSchema(outputSchema)) : undefined),
  };
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
      logger.warn(`Tool "${definition.name}" of plugin "${plugin}": ${key}.${problem.path.join(".")}: ${problem.message}; that keyword is left unchecked`);
    }
  }
}

/** A tool a plugin listed and the registry left out (an invalid schema): what a call of it answers. */
export interface SkippedTool {
  plugin: string;
  error: ToolErrorInfo;
}

/**
 * The registry of `plugins`' tools, reusing `previous`' entries of tools that did not change.
 * `strict` makes name conflicts throw instead of keeping the first (with a warning). A tool with a
 * bad schema is skipped with a warning and put in `skipped`: one bad tool leaves its plugin's others served.
 */
export function buildRegistry(
  plugins: RunningPlugin[],
  previous: ReadonlyMap<string, RegisteredTool>,
  strict: boolean,
  logger: Logger,
  skipped: Map<string, SkippedTool> = new Map(),
): Map<string, RegisteredTool> {
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
      const problems = [...checkSchema(definition.inputSchema), ...(definition.outputSchema ? checkSchema(definition.outputSchema) : [])];
      if (problems.length > 0) {
        const message = `Tool "${definition.name}" of plugin "${owner.name}" has an invalid JSON Schema: ${problems[0]!.message}`;
        logger.warn(`${message} (tool skipped)`);
        skipped.set(definition.name, { plugin: owner.name, error: { code: "PLUGIN_FAILED", message: `${message}; the tool is unavailable`, details: { tool: definition.name, plugin: owner.name, problems } } });
        continue;
      }
      warnUncheckedPatterns(definition, owner.name, logger);
      registry.set(definition.name, registerTool(definition, owner));
    }
  }
  return registry;
}
