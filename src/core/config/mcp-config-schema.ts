/**
 * mcp.json in the shapes clients already write: `mcpServers` (Claude Desktop, Cursor, Claude Code)
 * or `servers` (VS Code), each server checked against `mcpServerEntrySchema`.
 */
import { z } from "zod";
import { mcpServerEntrySchema } from "./mcp-server-schema.js";

const serverEntries = z.record(z.string(), mcpServerEntrySchema);

export const mcpConfigSchema = z.strictObject({
  $schema: z.string().optional(),
  mcpServers: serverEntries.optional(),
  servers: serverEntries.optional(),
  inputs: z.array(z.unknown()).optional().describe("VS Code's input prompts; accepted and ignored (`${input:id}` reads the variable ID)."),
});

export type McpConfigFile = z.infer<typeof mcpConfigSchema>;
