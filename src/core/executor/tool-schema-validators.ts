/**
 * A registered tool's validators. A plugin's or server's schema that ajv cannot use (invalid in its
 * own dialect, an unknown `$schema`, a reference that does not resolve, or a compile that throws)
 * never costs the tool: it stays listed and callable, that schema's checks are skipped, and one
 * warning names the tool and the place in the schema. The user cannot fix a server's schema, and
 * the server checks its own arguments anyway.
 */
import { formatJsonPath } from "../json/parse-json-document.js";
import type { JsonSchema, Logger, ToolDefinition } from "../plugin-contract.js";
import { describeSchemaProblem } from "../schema/check-tool-schema.js";
import { checkSchema, compileSchema, type CompiledValidator, type SchemaProblem } from "../schema/schema-validator.js";

type SchemaKey = "inputSchema" | "outputSchema";

/** The validator of a schema whose checks are skipped: everything passes. */
const UNCHECKED: CompiledValidator = () => [];

export interface ToolSchemaValidators {
  /** Compiled on first use: a registry of thousands of tools starts without compiling any. */
  inputValidator(): CompiledValidator;
  outputValidator(): CompiledValidator | undefined;
}

function warnUnchecked(definition: ToolDefinition, plugin: string, key: SchemaKey, problem: SchemaProblem, logger: Logger): void {
  const schema = definition[key]!;
  const server = definition.server ? ` (server "${definition.server.name}")` : "";
  const what = key === "inputSchema" ? "its arguments" : "its results";
  logger.warn(`Tool "${definition.name}" of plugin "${plugin}"${server}: its ${key} cannot be used for validation (${formatJsonPath([key, ...problem.path])}: ${describeSchemaProblem(schema, problem)}); the tool works, but ${what} are not checked`);
}

/**
 * Checks a tool's schemas once (the meta-schema of their dialect; references resolved) and gives
 * validators compiled on first use; a schema found unusable, now or at its compile, warns once and
 * checks nothing.
 *
 * @example
 * const validators = toolSchemaValidators(definition, "mcp", logger);
 * validators.inputValidator()({ path: "a.txt" }); // [] when the arguments match
 */
export function toolSchemaValidators(definition: ToolDefinition, plugin: string, logger: Logger): ToolSchemaValidators {
  const usable = (key: SchemaKey, schema: JsonSchema): boolean => {
    const [problem] = checkSchema(schema);
    if (problem !== undefined) warnUnchecked(definition, plugin, key, problem, logger);
    return problem === undefined;
  };
  const compile = (key: SchemaKey, schema: JsonSchema): CompiledValidator => {
    try {
      return compileSchema(schema);
    } catch (error) {
      warnUnchecked(definition, plugin, key, { path: [], message: (error as Error).message }, logger);
      return UNCHECKED;
    }
  };
  const { inputSchema, outputSchema } = definition;
  // Two closures over one scope, not a `lazy` pair: a registry of 10,000 tools holds one per tool.
  let input: CompiledValidator | undefined = usable("inputSchema", inputSchema) ? undefined : UNCHECKED;
  let output: CompiledValidator | undefined = outputSchema === undefined || usable("outputSchema", outputSchema) ? undefined : UNCHECKED;
  return {
    inputValidator: () => (input ??= compile("inputSchema", inputSchema)),
    outputValidator: () => (outputSchema ? (output ??= compile("outputSchema", outputSchema)) : undefined),
  };
}
