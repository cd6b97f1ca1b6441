/**
 * A saved tool's file: a JavaScript file whose leading block comment holds the tool's definition as
 * JSON, followed by its code as written. Readable and editable by hand, and diffs well (the code is
 * not a JSON string with `\n` escapes).
 *
 * ```js
 * /* toolexec saved tool: the JSON below is its definition; the code after it runs with `input` = the arguments.
 * { "name": "total_sales", "description": "...", "inputSchema": { ... }, "created": "...", "modified": "..." }
 * *\/
 * const rows = await tools.local.read_csv({ path: input.path });
 * rows.reduce((sum, row) => sum + row.amount, 0);
 * ```
 */
import type { JsonSchema } from "../../../core/plugin-contract.js";

/** A saved composite tool: a code-mode program with a name and schemas, callable like any tool. */
export interface SavedTool {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  /** JavaScript run in code mode with `input` = the call's arguments; its value is the tool's value. */
  code: string;
  /** ISO 8601 times of the first save and of the last. */
  created: string;
  modified: string;
}

/** What `saveTool` takes: a saved tool without its times. */
export type SavedToolDefinition = Omit<SavedTool, "created" | "modified">;

const FIRST_LINE = "/* toolexec saved tool: the JSON below is its definition; the code after it runs with `input` = the arguments.";
const HEADER_END = "*/";

/** The file's text. `*` + `/` inside JSON strings is written `*\/` (the same string in JSON) so it cannot end the comment. */
export function formatSavedToolFile(tool: SavedTool): string {
  const { code, ...definition } = tool;
  const header = JSON.stringify(definition, null, 2).replaceAll("*/", "*\\/");
  return `${FIRST_LINE}\n${header}\n${HEADER_END}\n${code}\n`;
}

export type ParsedSavedToolFile = { ok: true; definition: Record<string, unknown>; code: string } | { ok: false; message: string };

/**
 * @example
 * parseSavedToolFile(formatSavedToolFile(tool)); // { ok: true, definition: { name, ... }, code }
 */
export function parseSavedToolFile(text: string): ParsedSavedToolFile {
  if (!text.startsWith("/*")) return { ok: false, message: 'Expected the file to start with the definition\'s comment "/* toolexec saved tool ..."' };
  const headerStart = text.indexOf("\n");
  const headerEnd = text.indexOf(HEADER_END, 2);
  if (headerStart < 0 || headerEnd < 0 || headerEnd < headerStart) return { ok: false, message: 'Expected the definition\'s comment to end with "*/" on a line of its own' };
  let definition: unknown;
  try {
    definition = JSON.parse(text.slice(headerStart + 1, headerEnd));
  } catch (error) {
    return { ok: false, message: `The definition is not valid JSON: ${(error as Error).message}` };
  }
  if (definition === null || typeof definition !== "object" || Array.isArray(definition)) return { ok: false, message: "Expected the definition to be a JSON object" };
  const codeStart = text.startsWith("\r\n", headerEnd + 2) ? headerEnd + 4 : text.startsWith("\n", headerEnd + 2) ? headerEnd + 3 : headerEnd + 2;
  // The file ends with one line break after the code (editors add one); it is not part of the code.
  const code = text.slice(codeStart).replace(/\r?\n$/, "");
  return { ok: true, definition: definition as Record<string, unknown>, code };
}
