/**
 * A registry entry and its validators. A plugin's or server's schema that ajv cannot use (invalid in its
 * own dialect, an unknown `$schema`, a reference that does not resolve, or a compile that throws)
 * never costs the tool: it stays listed and callable, that schema's checks are skipped, and one
 * warning names the tool and the place in the schema. The user cannot fix a server's schema, and
 * the server checks its own arguments anyway.
 */
import { formatJsonPath } from "../json/parse-json-document.js";
import type { Logger, ToolDefinition } from "../plugin-contract.js";
import { describeSchemaProblem } from "../schema/check-tool-schema.js";
import { checkSchema, compileSchema, type CompiledValidator, type SchemaProblem } from "../schema/schema-validator.js";

type SchemaKey = "inputSchema" | "outputSchema";

/** The validator of a schema whose checks are skipped: everything passes. */
const UNCHECKED: CompiledValidator = () => [];

export interface ToolSchemaValidators {
  /** Compiled on first use: a registry of thousands of tools starts without compiling any. */
  inputValidator(): CompiledValidator;
  outputValidator(): CompiledValidator | undefined;
  /**
   * Why a schema of the tool checks nothing, when one found unusable at registration: `Tool "typo"
   * of plugin "echo": its inputSchema cannot be used for validation (…)`. `strict: true` refuses such tools.
   */
  readonly uncheckedReason: string | undefined;
}

/** `Tool "x" of plugin "p" (server "s"): its inputSchema cannot be used for validation (path: problem)`. */
function describeUnusable(definition: ToolDefinition, plugin: string, key: SchemaKey, problem: SchemaProblem): string {
  const server = definition.server ? ` (server "${definition.server.name}")` : "";
  return `Tool "${definition.name}" of plugin "${plugin}"${server}: its ${key} cannot be used for validation (${formatJsonPath([key, ...problem.path])}: ${describeSchemaProblem(definition[key]!, problem)})`;
}

function warnUnchecked(reason: string, key: SchemaKey, logger: Logger): void {
  logger.warn(`${reason}; the tool works, but ${key === "inputSchema" ? "its arguments" : "its results"} are not checked`);
}

/** Why the schema cannot be used (invalid in its dialect, references unresolved), warned once; undefined when it can. */
function unusableReason(definition: ToolDefinition, plugin: string, key: SchemaKey, logger: Logger): string | undefined {
  const [problem] = checkSchema(definition[key]!);
  if (problem === undefined) return undefined;
  const reason = describeUnusable(definition, plugin, key, problem);
  warnUnchecked(reason, key, logger);
  return reason;
}

function compileOrSkip(definition: ToolDefinition, plugin: string, key: SchemaKey, logger: Logger): CompiledValidator {
  try {
    return compileSchema(definition[key]!);
  } catch (error) {
    warnUnchecked(describeUnusable(definition, plugin, key, { path: [], message: (error as Error).message }), key, logger);
    return UNCHECKED;
  }
}

/**
 * A registry entry: `definition` and `owner` with validators compiled on first use. Its schemas are
 * checked now (the meta-schema of their dialect; references resolved); one found unusable, now or
 * at its compile, warns once and checks nothing.
 *
 * @example
 * const entry = registeredTool(definition, owner, logger);
 * entry.inputValidator()({ path: "a.txt" }); // [] when the arguments match
 */
export function registeredTool<Owner extends { name: string }>(definition: ToolDefinition, owner: Owner, logger: Logger): ToolSchemaValidators & { definition: ToolDefinition; owner: Owner } {
  const plugin = owner.name;
  // Two closures over one scope, not a `lazy` pair: a registry of 10,000 tools holds one per tool.
  const inputReason = unusableReason(definition, plugin, "inputSchema", logger);
  const outputReason = definition.outputSchema === undefined ? undefined : unusableReason(definition, plugin, "outputSchema", logger);
  let input: CompiledValidator | undefined = inputReason === undefined ? undefined : UNCHECKED;
  let output: CompiledValidator | undefined = outputReason === undefined ? undefined : UNCHECKED;
  return {
    definition,
    owner,
    uncheckedReason: inputReason ?? outputReason,
    inputValidator: () => (input ??= compileOrSkip(definition, plugin, "inputSchema", logger)),
    outputValidator: () => (definition.outputSchema ? (output ??= compileOrSkip(definition, plugin, "outputSchema", logger)) : undefined),
  };
}
