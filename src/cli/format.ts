/** Human-readable text for the CLI: tool lists, results, config problems. */
import type { ConfigIssue } from "../core/errors/config-error.js";
import { formatConfigIssue } from "../core/errors/config-error.js";
import type { JsonSchema } from "../core/plugin-contract.js";
import type { ToolResult } from "../core/tool-result.js";
import type { ToolInfo } from "../core/executor/create-executor.js";

function typeOf(schema: JsonSchema | undefined): string {
  if (!schema) return "any";
  if (Array.isArray(schema.enum)) {
    const shown = schema.enum.slice(0, 6).map((value) => JSON.stringify(value)).join(" | ");
    return schema.enum.length > 6 ? `${shown} | ... (${schema.enum.length} values)` : shown;
  }
  const type = schema.type;
  if (type === "array") return `${typeOf(schema.items as JsonSchema | undefined)}[]`;
  if (Array.isArray(type)) return type.join(" | ");
  return typeof type === "string" ? type : "any";
}

/** `path*: string, columns: string[]` — required arguments starred. */
export function formatArguments(schema: JsonSchema): string {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const parts = Object.entries(properties).map(([name, property]) => `${name}${required.has(name) ? "*" : ""}: ${typeOf(property)}`);
  return parts.length === 0 ? "(none)" : parts.join(", ");
}

export function formatToolList(tools: ToolInfo[]): string {
  if (tools.length === 0) return "No tools. Add some to tools.json (see docs/config.md).";
  const width = Math.min(32, Math.max(...tools.map((tool) => tool.name.length)));
  const lines = tools.map((tool) => {
    const summary = tool.description.split(/(?<=\.)\s/)[0]!.replace(/\s+/g, " ");
    const shortened = summary.length > 100 ? `${summary.slice(0, 97)}...` : summary;
    return `${tool.name.padEnd(width)}  ${shortened}\n${" ".repeat(width)}  args: ${formatArguments(tool.inputSchema)}`;
  });
  return `${lines.join("\n")}\n\n${tools.length} tool${tools.length === 1 ? "" : "s"} (* = required argument)`;
}

export function formatValue(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

/** Failure text for stderr: code and message, then the most useful details. */
export function formatFailure(result: Extract<ToolResult, { ok: false }>): string {
  const lines = [`error ${result.error.code}: ${result.error.message}`];
  const details = result.error.details ?? {};
  const stderr = typeof details.stderr === "string" ? details.stderr.trim() : "";
  if (stderr !== "") lines.push("stderr (last lines):", ...stderr.split("\n").slice(-10).map((line) => `  ${line}`));
  lines.push(`execution id: ${result.executionId}`);
  return lines.join("\n");
}

export function formatIssues(issues: readonly ConfigIssue[]): string {
  return issues.map((issue) => `  ${formatConfigIssue(issue)}`).join("\n");
}
