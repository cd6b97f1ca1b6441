/** The zod schemas of tools.json's `profiles` and `identity` (gateway-config.ts), loaded on demand. */
import { z } from "zod";
import { PLUGIN_TOOL_NAME_PATTERN } from "../core/tool-names.js";

const toolName = z.string().regex(PLUGIN_TOOL_NAME_PATTERN, "Expected a tool name (letters, digits, _ . -; at most 128)");

export const profileSchema = z
  .strictObject({
    include: z.array(z.string()).optional().describe("Tools the profile shows: tool names, server names (all their tools) or patterns with *. Default: every tool."),
    exclude: z.array(z.string()).optional().describe("Tools the profile hides, written as include; wins over include."),
    rename: z.record(toolName, toolName).optional().describe("Tools shown under another name: { registry name: shown name }."),
    descriptions: z.record(toolName, z.string().min(1)).optional().describe("Descriptions shown instead of the tool's own: { registry name: description }."),
    pinned: z.array(toolName).optional().describe("Under searchFirst, the tools listed besides search_tools and call_tool."),
    searchFirst: z.boolean().optional().describe("List only search_tools, call_tool and the pinned tools (when the registry has them); every tool of the profile stays callable."),
  })
  .describe("A named view of the registry, served at /mcp/p/<name>.");

export const profilesSchema = z.record(z.string(), profileSchema).describe("Named views of the registry for served clients (docs/identity.md).");

export const identityConfigSchema = z
  .strictObject({
    oauth: z
      .strictObject({
        issuer: z.string().regex(/^https?:\/\/[^\s/]+/, "Expected the issuer's http(s) URL").describe("The authorization server's issuer URL; its JWKS is found from its metadata."),
        audience: z.string().min(1).describe("The audience (`aud`) a token must name: this server's resource identifier."),
      })
      .optional()
      .describe("Accept JWT bearer tokens from this issuer (OAuth 2.1 resource server)."),
    limits: z
      .strictObject({
        callsPerMinute: z.number().int().min(1).optional().describe("Calls one principal may start per minute."),
        concurrentCalls: z.number().int().min(1).optional().describe("Calls one principal may have running at once."),
      })
      .optional()
      .describe("Per-principal limits; past one, a call is answered RATE_LIMITED with a retry-after."),
  })
  .describe("Who may call a served endpoint (docs/identity.md).");

export type ProfileConfig = z.infer<typeof profileSchema>;
export type IdentityConfig = z.infer<typeof identityConfigSchema>;
