/**
 * Code mode for models, as pure functions: the tool-address rule, TypeScript declarations generated
 * from tool schemas, the `code_execution` description and input schema, and the `describe_tool` /
 * `search_tools` helpers the sandbox exposes.
 *
 * @example
 * import { describeCodeExecutionTool, codeExecutionInputSchema } from "./declarations/index.js";
 * const definition = { name: "code_execution", description: describeCodeExecutionTool(tools), inputSchema: codeExecutionInputSchema };
 */
export { HUMAN_SERVER, LOCAL_SERVER, registryNameAt, RESERVED_SERVER_NAMES, toolAddress } from "./tool-address.js";
export type { ToolAddress } from "./tool-address.js";
export { CODE_EXECUTION_TOOL_NAME, groupByServer, listCodeModeTools, namesExcludedFromCode } from "./code-mode-catalog.js";
export type { CodeModeTool } from "./code-mode-catalog.js";
export { DEFAULT_MAX_SCHEMA_DEPTH, schemaToTypeScript } from "./schema-to-typescript.js";
export { MAX_LITERAL_UNION_SIZE } from "./rendered-type.js";
export type { SchemaToTypeScriptOptions } from "./schema-to-typescript.js";
export { createNamedTypes, NAMED_TYPES_NAMESPACE } from "./named-types.js";
export type { NamedTypes } from "./named-types.js";
export { DEFAULT_MAX_TOOL_DECLARATION_LENGTH, generateToolDeclarations } from "./tool-declarations.js";
export { SANDBOX_API_DECLARATIONS } from "./sandbox-api-declarations.js";
export { describeCodeExecutionTool } from "./code-execution-description.js";
export { DEFAULT_MAX_DESCRIPTION_BYTES, resolveDescribeCodeExecutionOptions, resolveGenerateToolDeclarationsOptions } from "./resolve-code-mode-options.js";
export type { DescribeCodeExecutionOptions, GenerateToolDeclarationsOptions, ResolvedDescribeCodeExecutionOptions } from "./resolve-code-mode-options.js";
export type { CodeExecutionLimits } from "./code-execution-guide.js";
export { codeExecutionInputSchema } from "./code-execution-input-schema.js";
export type { CodeExecutionInput } from "./code-execution-input-schema.js";
export { describeCatalogTool, describeTool, MAX_DESCRIBED_TOOL_LENGTH } from "./describe-tool.js";
export { DEFAULT_SEARCH_LIMIT, searchCatalog, searchTools, searchToolsRanked, type RankTools, type SearchableCatalog } from "./search-tools.js";
export type { ToolSearchMatch } from "./search-tools.js";
export { summarizeDescription } from "./summarize-description.js";
