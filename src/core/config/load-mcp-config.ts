/** Loads mcp.json's top level; each server entry is handed, as written, to the `mcp` plugin. */
import path from "node:path";
import type { ConfigIssue } from "../errors/config-error.js";
import { mcpConfigSchema } from "./mcp-config-schema.js";
import { readJsonConfig } from "./read-json-config.js";

/** One server as written in mcp.json, with its name. */
export interface McpServerEntry {
  name: string;
  config: Record<string, unknown>;
}

export type LoadMcpResult =
  | { status: "ok"; servers: McpServerEntry[] }
  | { status: "missing" | "invalid"; issues: ConfigIssue[] };

/** Read and check `mcp.json` (or `fileName`) under `root`. Never throws for file content. */
export async function loadMcpConfig(root: string, fileName: string): Promise<LoadMcpResult> {
  const absolutePath = path.resolve(root, fileName);
  const file = path.relative(root, absolutePath) || fileName;
  const read = await readJsonConfig(absolutePath, file, mcpConfigSchema, 'create it with { "mcpServers": {} } or pass `mcpConfig: false` to run without MCP servers');
  if (read.status !== "ok") return read;
  const { mcpServers, servers } = read.data;
  if (mcpServers !== undefined && servers !== undefined) {
    return { status: "invalid", issues: [{ file, path: "servers", ...read.document.locate(["servers"], { key: true }), message: 'Expected either "mcpServers" or "servers", got both' }] };
  }
  if (mcpServers === undefined && servers === undefined) {
    return { status: "invalid", issues: [{ file, path: "", line: 1, column: 1, message: 'Missing required key "mcpServers" (or VS Code\'s "servers"): expected an object of servers by name' }] };
  }
  const entries = Object.entries(mcpServers ?? servers ?? {}).map(([name, config]) => ({ name, config }));
  return { status: "ok", servers: entries };
}
