/**
 * Checks a saved tool's definition with the strictness of tools.json: the name's rules and clashes,
 * the schemas against their meta-schema (and the rules tools.json applies to them), the code's
 * syntax with its line and column, and size limits. Every problem is reported at once, each naming
 * the field to fix.
 */
import { checkToolSchema } from "../../../core/schema/check-tool-schema.js";
import { describeValue } from "../../../core/json/describe-value.js";
import { formatJsonPath } from "../../../core/json/parse-json-document.js";
import type { JsonSchema } from "../../../core/plugin-contract.js";
import { RESERVED_TOOL_NAMES, TOOL_NAME_PATTERN } from "../../../core/tool-names.js";
import { prepareSource } from "../prepare-source.js";
import type { SavedTool } from "./saved-tool-file.js";

/** Cap on a definition without its code (description and schemas), as JSON. */
export const MAX_SAVED_DEFINITION_BYTES = 64 * 1024;

const KEYS = new Set(["name", "description", "inputSchema", "outputSchema", "code", "created", "modified"]);

export interface SavedToolLimits {
  /** The code's cap in bytes (`codeExecution.maxCodeBytes`). */
  maxCodeBytes: number;
  /** Why a name cannot be taken (another tool has it), if it cannot. */
  nameTaken(name: string): string | undefined;
}

export type CheckSavedToolResult = { ok: true; tool: Omit<SavedTool, "created" | "modified"> } | { ok: false; problems: string[] };

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * @example
 * checkSavedTool({ name: "total", description: "Sum", inputSchema: { type: "object" }, code: "1 +" }, limits);
 * // { ok: false, problems: ["code: Unexpected token at line 1, column 4"] }
 */
export function checkSavedTool(definition: unknown, limits: SavedToolLimits): CheckSavedToolResult {
  if (!isObject(definition)) return { ok: false, problems: [`Expected the tool's definition as an object, got ${describeValue(definition)}`] };
  const problems: string[] = [];
  for (const key of Object.keys(definition)) if (!KEYS.has(key)) problems.push(`${key}: unknown key; a saved tool has name, description, inputSchema, outputSchema and code`);
  const { name, description, inputSchema, outputSchema, code } = definition;

  if (typeof name !== "string" || !TOOL_NAME_PATTERN.test(name)) {
    problems.push(`name: Expected 1-128 characters from A-Z a-z 0-9 _ - . without "__", got ${describeValue(name)}`);
  } else if (name.startsWith(".")) {
    problems.push(`name: Expected a name that does not start with "." (its file would be hidden), got ${JSON.stringify(name)}`);
  } else if ((RESERVED_TOOL_NAMES as readonly string[]).includes(name)) {
    problems.push(`name: "${name}" is reserved for a built-in tool; choose another name`);
  } else {
    const taken = limits.nameTaken(name);
    if (taken) problems.push(`name: ${taken}`);
  }
  if (typeof description !== "string" || description.trim() === "") problems.push(`description: Expected a non-empty string saying what the tool does and when to use it, got ${describeValue(description)}`);

  for (const [key, schema] of [["inputSchema", inputSchema], ["outputSchema", outputSchema]] as const) {
    if (schema === undefined && key === "outputSchema") continue;
    if (!isObject(schema)) {
      problems.push(`${key}: Expected a JSON Schema object${key === "inputSchema" ? ' (with "type": "object")' : ""}, got ${describeValue(schema)}`);
      continue;
    }
    for (const problem of checkToolSchema(key, schema as JsonSchema)) problems.push(`${formatJsonPath([key, ...problem.path])}: ${problem.message}`);
  }
  const definitionBytes = Buffer.byteLength(JSON.stringify({ name, description, inputSchema, outputSchema }) ?? "", "utf8");
  if (definitionBytes > MAX_SAVED_DEFINITION_BYTES) problems.push(`description and schemas: ${definitionBytes} bytes as JSON, over the limit of ${MAX_SAVED_DEFINITION_BYTES}`);

  if (typeof code !== "string" || code.trim() === "") {
    problems.push(`code: Expected a non-empty string of JavaScript, got ${describeValue(code)}`);
  } else if (Buffer.byteLength(code, "utf8") > limits.maxCodeBytes) {
    problems.push(`code: ${Buffer.byteLength(code, "utf8")} bytes, over the limit of ${limits.maxCodeBytes} (codeExecution.maxCodeBytes)`);
  } else {
    const prepared = prepareSource(code);
    if (!prepared.ok) problems.push(`code: ${prepared.message}${/line \d+/.test(prepared.message) ? "" : ` (line ${prepared.line}, column ${prepared.column})`}`);
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    tool: {
      name: name as string,
      description: description as string,
      inputSchema: inputSchema as JsonSchema,
      ...(outputSchema === undefined ? {} : { outputSchema: outputSchema as JsonSchema }),
      code: code as string,
    },
  };
}
