/**
 * `describe_tool(name)` inside the sandbox: one tool's declaration, for catalogs too large to declare
 * in the description, or a not-found message that names the closest tools.
 */
import { closestMatch } from "../../../core/json/describe-value.js";
import type { ToolDefinition } from "../../../core/plugin-contract.js";
import { listCodeModeTools, type CodeModeTool } from "./code-mode-catalog.js";
import { createNamedTypes } from "./named-types.js";
import { searchCatalog } from "./search-tools.js";
import { renderToolsDeclaration } from "./tool-declarations.js";
import { propertyAccess } from "./typescript-text.js";

/** One described tool may be this long: the model asked for it, so it gets more room than in the catalog. */
export const MAX_DESCRIBED_TOOL_LENGTH = 32_000;

/** A not-found message suggests at most this many tools. */
const SUGGESTIONS = 3;

/**
 * The declaration of one tool, found by registry name (`github__create_issue`), by `server.tool`
 * (`github.create_issue`) or by `tools.server.tool`; else a message naming close matches.
 *
 * @example
 * describeTool(tools, "local.unit_convert");
 * // "// unit_convert: tools.local.unit_convert(args) or call_tool(\"local\", \"unit_convert\", args)\ndeclare const tools: { ... };"
 */
export function describeTool(tools: readonly ToolDefinition[], name: string): string {
  return describeCatalogTool(listCodeModeTools(tools), name);
}

/**
 * `describeTool` over tools already listed for code mode: what the sandbox's `describe_tool` runs,
 * without listing the registry again for each call.
 *
 * @example
 * describeCatalogTool(catalog.entries, "local.unit_convert");
 */
export function describeCatalogTool(catalog: readonly CodeModeTool[], name: string): string {
  const wanted = String(name).trim();
  const entry = findTool(catalog, wanted);
  if (entry === undefined) return notFound(catalog, wanted);
  const namedTypes = createNamedTypes();
  const declaration = renderToolsDeclaration([entry], namedTypes, MAX_DESCRIBED_TOOL_LENGTH);
  const usage = `// ${entry.name}: tools${propertyAccess(entry.server)}${propertyAccess(entry.tool)}(args) or call_tool(${JSON.stringify(entry.server)}, ${JSON.stringify(entry.tool)}, args)`;
  return [usage, namedTypes.render(), declaration].filter((part) => part !== "").join("\n").trimEnd();
}

function findTool(catalog: readonly CodeModeTool[], wanted: string): CodeModeTool | undefined {
  const byName = catalog.find((entry) => entry.name === wanted);
  if (byName) return byName;
  const dotted = wanted.startsWith("tools.") ? wanted.slice("tools.".length) : wanted;
  // Server and tool names may contain dots themselves, so every dot is a possible split.
  return catalog.find((entry) => `${entry.server}.${entry.tool}` === dotted);
}

function notFound(catalog: readonly CodeModeTool[], wanted: string): string {
  const suggestions: CodeModeTool[] = [];
  const remaining = new Map(catalog.map((entry) => [entry.name, entry]));
  while (suggestions.length < SUGGESTIONS) {
    const close = closestMatch(wanted, remaining.keys()) ?? closestMatch(wanted, [...remaining.values()].map((entry) => `${entry.server}.${entry.tool}`));
    const entry = close === undefined ? undefined : (remaining.get(close) ?? catalog.find((candidate) => `${candidate.server}.${candidate.tool}` === close));
    if (entry === undefined) break;
    suggestions.push(entry);
    remaining.delete(entry.name);
  }
  for (const match of searchCatalog(catalog, wanted, SUGGESTIONS)) {
    const entry = remaining.get(match.name);
    if (entry === undefined || suggestions.length >= SUGGESTIONS) continue;
    suggestions.push(entry);
    remaining.delete(entry.name);
  }
  const head = `No tool named ${JSON.stringify(wanted)}.`;
  const hint = 'search_tools("words") finds tools by name and description.';
  if (suggestions.length === 0) return `${head} ${hint}`;
  return `${head} Did you mean ${suggestions.map((entry) => `${entry.server}.${entry.tool}`).join(", ")}? ${hint}`;
}
