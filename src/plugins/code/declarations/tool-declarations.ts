/**
 * TypeScript declarations of everything sandboxed code can use, generated from the tools' schemas:
 * the model reads them in the `code_execution` description, and they type-check under `strict`.
 */
import type { ToolAnnotations, ToolDefinition } from "../../../core/plugin-contract.js";
import { groupByServer, listCodeModeTools, type CodeModeTool } from "./code-mode-catalog.js";
import { createNamedTypes, type NamedTypes } from "./named-types.js";
import { resolveGenerateToolDeclarationsOptions, type GenerateToolDeclarationsOptions } from "./resolve-code-mode-options.js";
import { SANDBOX_API_DECLARATIONS } from "./sandbox-api-declarations.js";
import { isSchemaObject } from "./schema-hints.js";
import { DEFAULT_MAX_SCHEMA_DEPTH, schemaToTypeScript } from "./schema-to-typescript.js";
import { docComment, indentFollowingLines, propertyKey, typeNameFrom } from "./typescript-text.js";

/**
 * One tool's declaration (with the named types it needs) may be this long before it loses detail:
 * first its property comments, then nesting depth, at last its types.
 */
export const DEFAULT_MAX_TOOL_DECLARATION_LENGTH = 8_000;

/** The steps a too-long declaration goes through, most detailed first. */
const DETAIL_LEVELS = [
  { documentation: true, maxDepth: DEFAULT_MAX_SCHEMA_DEPTH },
  { documentation: false, maxDepth: DEFAULT_MAX_SCHEMA_DEPTH },
  { documentation: false, maxDepth: 3 },
  { documentation: false, maxDepth: 1 },
] as const;

const UNTYPED_ARGUMENTS = "{ [key: string]: unknown }";

/**
 * Declarations of `input`, `call_tool`, `call_tools`, `ToolError`, `describe_tool`, `search_tools`,
 * `console` and `tools.<server>.<tool>(args)` for every callable tool, with doc comments from the
 * descriptions. A tool without an output schema resolves to `unknown`.
 *
 * @example
 * const text = generateToolDeclarations(await executor.listTools(), { exclude: ["drop_table"] });
 * // ... declare const tools: { local: { csv_summary(args: { path: string; ... }): Promise<{ ... }>; }; };
 */
export function generateToolDeclarations(tools: readonly ToolDefinition[], options: GenerateToolDeclarationsOptions = {}): string {
  const catalog = listCodeModeTools(tools, resolveGenerateToolDeclarationsOptions(options).exclude);
  const namedTypes = createNamedTypes();
  const toolsDeclaration = renderToolsDeclaration(catalog, namedTypes);
  return [SANDBOX_API_DECLARATIONS, namedTypes.render(), toolsDeclaration].filter((part) => part !== "").join("\n");
}

/**
 * `declare const tools: { <server>: { <tool>(args): Promise<value>; ... }; ... };` for a catalog; the
 * named types it needs land in `namedTypes`, to be rendered before it.
 *
 * @example
 * const namedTypes = createNamedTypes();
 * const toolsDeclaration = renderToolsDeclaration(listCodeModeTools(tools), namedTypes);
 * const text = `${namedTypes.render()}${toolsDeclaration}`;
 */
export function renderToolsDeclaration(catalog: readonly CodeModeTool[], namedTypes: NamedTypes, maxLength = DEFAULT_MAX_TOOL_DECLARATION_LENGTH): string {
  return renderToolsDeclarationWithin(catalog, namedTypes, Number.POSITIVE_INFINITY, maxLength)!;
}

/**
 * {@link renderToolsDeclaration}, or undefined as soon as it and its named types pass `maxTotalLength`
 * characters: a large catalog costs only as much work as the budget it cannot fit.
 *
 * @example
 * const fits = renderToolsDeclarationWithin(catalog, createNamedTypes(), 20_000) !== undefined;
 */
export function renderToolsDeclarationWithin(
  catalog: readonly CodeModeTool[],
  namedTypes: NamedTypes,
  maxTotalLength: number,
  maxLength = DEFAULT_MAX_TOOL_DECLARATION_LENGTH,
): string | undefined {
  if (catalog.length === 0) return "/** No tools are available to code. */\ndeclare const tools: {};\n";
  const lines = ["declare const tools: {"];
  const start = namedTypes.mark();
  let length = 0;
  for (const [server, entries] of groupByServer(catalog)) {
    lines.push(`  ${propertyKey(server)}: {`);
    for (const entry of entries) {
      const member = `    ${indentFollowingLines(renderToolMember(entry, namedTypes, maxLength), "    ")}`;
      length += member.length + 1;
      if (length + namedTypes.lengthSince(start) > maxTotalLength) return undefined;
      lines.push(member);
    }
    lines.push("  };");
  }
  lines.push("};");
  return `${lines.join("\n")}\n`;
}

/**
 * One tool as a method declaration with its doc comment. When it is longer than `maxLength`, it is
 * rendered again with less detail; the named types of discarded attempts are rolled back.
 *
 * @example
 * const [entry] = listCodeModeTools(tools);
 * renderToolMember(entry, createNamedTypes()); // "/** ... *\/\ncsv_summary(args: { ... }): Promise<{ ... }>;"
 */
export function renderToolMember(entry: CodeModeTool, namedTypes: NamedTypes, maxLength = DEFAULT_MAX_TOOL_DECLARATION_LENGTH): string {
  for (const level of DETAIL_LEVELS) {
    const mark = namedTypes.mark();
    const text = renderMethod(entry, namedTypes, level);
    if (text.length + namedTypes.lengthSince(mark) <= maxLength) return text;
    namedTypes.rollback(mark);
  }
  return renderMethod(entry, namedTypes, undefined);
}

function renderMethod(entry: CodeModeTool, namedTypes: NamedTypes, level: (typeof DETAIL_LEVELS)[number] | undefined): string {
  const { definition } = entry;
  const baseName = typeNameFrom(`${entry.server} ${entry.tool}`);
  const convert = (schema: unknown, suffix: string) =>
    level === undefined ? "unknown" : schemaToTypeScript(schema, { namedTypes, ...level, rootName: `${baseName}${suffix}` });
  const argumentsType = convert(definition.inputSchema, "Arguments");
  const valueType = definition.outputSchema === undefined ? "unknown" : convert(definition.outputSchema, "Value");
  const optional = hasNoRequiredArguments(definition.inputSchema) ? "?" : "";
  const parameterType = argumentsType === "unknown" ? UNTYPED_ARGUMENTS : argumentsType;
  const omitted = level === undefined ? "Types omitted: the schemas are too large to show here." : "";
  const comment = docComment([definition.description, annotationSentence(definition.annotations), omitted].filter((part) => part !== "").join("\n\n"));
  const signature = `${propertyKey(entry.tool)}(args${optional}: ${parameterType}): Promise<${valueType}>;`;
  return comment === "" ? signature : `${comment}\n${signature}`;
}

function hasNoRequiredArguments(schema: unknown): boolean {
  return !isSchemaObject(schema) || !Array.isArray(schema.required) || schema.required.length === 0;
}

/** MCP's hints, when a tool states them, in words a model weighs before calling. */
function annotationSentence(annotations: ToolAnnotations | undefined): string {
  if (annotations === undefined) return "";
  const hints: string[] = [];
  if (annotations.readOnlyHint === true) hints.push("read-only");
  if (annotations.destructiveHint === true && annotations.readOnlyHint !== true) hints.push("destructive");
  if (annotations.idempotentHint === true) hints.push("idempotent");
  if (annotations.openWorldHint === true) hints.push("reaches outside systems");
  return hints.length === 0 ? "" : `Hints: ${hints.join(", ")}.`;
}
