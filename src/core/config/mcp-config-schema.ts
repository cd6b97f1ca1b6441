/**
 * The top level of mcp.json in the shapes clients already write: `mcpServers` (Claude Desktop,
 * Cursor, Claude Code) or `servers` (VS Code). Server entries are the MCP plugin's to validate.
 */
import { z } from "zod";

const serverEntries = z.record(z.string(), z.record(z.string(), z.unknown()));

export const mcpConfigSchema = z.strictObject({
  $schema: z.string().optional(),
  mcpServers: serverEntries.optional(),
  servers: serverEntries.optional(),
  inputs: z.array(z.unknown()).optional().describe("VS Code's input prompts; accepted and ignored."),
});

export type McpConfigFile = z.infer<typeof mcpConfigSchema>;
