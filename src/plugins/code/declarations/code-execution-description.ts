/**
 * The `code_execution` tool's description for a model, generated from the live registry and kept
 * within a byte budget: full declarations when they fit, else tool names with one-line summaries,
 * else only servers with counts (always, under the search-first listing). The smaller forms send the
 * model to `describe_tool`/`search_tools`.
 */
import type { ToolDefinition } from "../../../core/plugin-contract.js";
import { groupByServer, listCodeModeTools, type CodeModeTool } from "./code-mode-catalog.js";
import { writeCodeExecutionGuide } from "./code-execution-guide.js";
import { createNamedTypes } from "./named-types.js";
import { resolveDescribeCodeExecutionOptions, type DescribeCodeExecutionOptions } from "./resolve-code-mode-options.js";
import { SANDBOX_API_DECLARATIONS, UNTYPED_TOOLS_DECLARATION } from "./sandbox-api-declarations.js";
import { summarizeDescription } from "./summarize-description.js";
import { renderToolsDeclarationWithin } from "./tool-declarations.js";

const DISCOVERY =
  'Inside the program, `describe_tool("server.tool")` returns one tool\'s TypeScript declaration and `search_tools("words")` finds tools by name and description. ' +
  "Call them in a first program that returns what they say when you need a tool's argument types.";

/**
 * The description of the `code_execution` tool.
 *
 * @example
 * const description = describeCodeExecutionTool(await executor.listTools(), {
 *   exclude: ["drop_table"],
 *   limits: { timeoutMs: 120_000 },
 * });
 */
export function describeCodeExecutionTool(tools: readonly ToolDefinition[], options: DescribeCodeExecutionOptions = {}): string {
  const resolved = resolveDescribeCodeExecutionOptions(options);
  const allowed = resolved.limits.allowedServers;
  const catalog = listCodeModeTools(tools, resolved.exclude).filter((entry) => allowed === undefined || allowed.includes(entry.server));
  const guide = writeCodeExecutionGuide(resolved.limits);
  const fits = (text: string) => byteLength(text) <= resolved.maxDescriptionBytes;

  if (resolved.searchFirst) {
    return fitServerList(`${guide}\n## Tools\n${count(catalog.length, "tool")} on ${count(groupByServer(catalog).size, "server")}; find the ones a task needs with search_tools. ${DISCOVERY}`, catalog, fits);
  }
  const declarations = declarationsWithin(catalog, resolved.maxDescriptionBytes - byteLength(guide));
  const declared = declarations === undefined ? undefined : `${guide}\n## Tools\n${typescriptBlock(declarations)}`;
  if (declared !== undefined && fits(declared)) return declared;

  const summarized = `${guide}\n## Tools\n${count(catalog.length, "tool")}, too many to declare here. ${DISCOVERY}\n\n${summaryLines(catalog)}\n\n${untypedDeclarations()}`;
  if (fits(summarized)) return summarized;

  return fitServerList(`${guide}\n## Tools\n${count(catalog.length, "tool")} on ${count(groupByServer(catalog).size, "server")}, too many to list here. ${DISCOVERY}`, catalog, fits);
}

/** The full declarations, or undefined once they pass the budget (characters never outnumber UTF-8 bytes). */
function declarationsWithin(catalog: readonly CodeModeTool[], budget: number): string | undefined {
  const namedTypes = createNamedTypes();
  const toolsDeclaration = renderToolsDeclarationWithin(catalog, namedTypes, budget);
  if (toolsDeclaration === undefined) return undefined;
  return [SANDBOX_API_DECLARATIONS, namedTypes.render(), toolsDeclaration].filter((part) => part !== "").join("\n");
}

function untypedDeclarations(): string {
  return typescriptBlock(`${SANDBOX_API_DECLARATIONS}\n${UNTYPED_TOOLS_DECLARATION}`);
}

function summaryLines(catalog: readonly CodeModeTool[]): string {
  const lines: string[] = [];
  for (const [server, entries] of groupByServer(catalog)) {
    lines.push(`${server} (${count(entries.length, "tool")}):`);
    for (const entry of entries) {
      const summary = summarizeDescription(entry.definition.description);
      lines.push(summary === "" ? `- ${entry.tool}` : `- ${entry.tool}: ${summary}`);
    }
  }
  return lines.join("\n");
}

/** Servers with their tool counts, as many as fit; the rest are counted in one last line. */
function fitServerList(head: string, catalog: readonly CodeModeTool[], fits: (text: string) => boolean): string {
  const servers = [...groupByServer(catalog)].map(([server, entries]) => `- ${server} (${count(entries.length, "tool")})`);
  const tail = `\n\n${untypedDeclarations()}`;
  for (let shown = servers.length; shown > 0; shown--) {
    const rest = servers.length - shown;
    const list = [...servers.slice(0, shown), ...(rest > 0 ? [`- … and ${count(rest, "more server")}`] : [])].join("\n");
    const text = `${head}\n\nServers:\n${list}${tail}`;
    if (fits(text)) return text;
  }
  // Below this the guide and the sandbox API would have to go, and without them code mode is unusable.
  return `${head}${tail}`;
}

function typescriptBlock(text: string): string {
  return `\`\`\`ts\n${text.trimEnd()}\n\`\`\``;
}

function count(amount: number, word: string): string {
  return `${amount} ${word}${amount === 1 ? "" : "s"}`;
}

const encoder = new TextEncoder();

function byteLength(text: string): number {
  return encoder.encode(text).length;
}
