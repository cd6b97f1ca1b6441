/**
 * mcp.json in the shapes clients already write: `mcpServers` (Claude Desktop, Cursor, Claude Code)
 * or `servers` (VS Code), each server checked against `mcpServerEntrySchema`. Other top-level keys
 * are other clients' settings in a shared file (Claude Desktop's `globalShortcut`, `preferences`):
 * they are ignored with a warning, while every server entry stays strict.
 */
import { z } from "zod";
import { serverDefaultsSchema, trustPolicySchema } from "./mcp-server-schema.js";

/**
 * Servers by name; each entry is checked on its own against `mcpServerEntrySchema` while resolving,
 * so every valid entry is resolved (and its problems found) even when another is not.
 */
const serverEntries = z.record(z.string(), z.unknown());

export { MCP_CONFIG_KEYS } from "./mcp-config-constants.js";

export const mcpConfigSchema = z.looseObject({
  $schema: z.string().optional(),
  mcpServers: serverEntries.optional(),
  servers: serverEntries.optional(),
  trust: trustPolicySchema.optional().describe('The tool trust policy of every server whose entry names none: "trust" (default), "pin" or "quarantine". See docs/tool-trust.md.'),
  serverDefaults: serverDefaultsSchema.optional(),
  maxConcurrentStarts: z.number().int().positive().max(1000).optional().describe("Stdio servers starting at once (spawn to tools listed), eager and lazy starts alike; more wait their turn (default 4)."),
  inputs: z.array(z.unknown()).optional().describe("VS Code's input prompts; accepted and ignored (`${input:id}` reads the variable ID)."),
});

export type McpConfigFile = z.infer<typeof mcpConfigSchema>;
