/**
 * Every option of `createExecutor` (the core's and the built-in plugins') in one strict zod schema,
 * loaded on demand: only for options the fast checks do not vouch for, where zod decides and words
 * every problem (`INVALID_OPTIONS`).
 */
import { z } from "zod";
import { MAX_TIMEOUT_MS } from "./core/config/timeout-limits.js";
import { checkOptions, configFileOptionSchema, coreOptionSchemas } from "./core/executor/core-option-schemas.js";
import { isStore } from "./core/store/open-store.js";
import { isTokenStore } from "./executor-options.js";
import type { OAuthTokenStore } from "./plugins/mcp/auth/token-store.js";
import { codeExecutionConfigSchema } from "./plugins/code/config/code-execution-config-schema.js";
import { toolSearchConfigSchema } from "./plugins/search/config/tool-search-config-schema.js";
import { webSearchConfigSchema } from "./plugins/web-search/config/web-search-config-schema.js";

export const optionsSchema = z.strictObject({
  ...coreOptionSchemas,
  onHumanInput: z.function().optional(),
  onElicitation: z.function().optional(),
  onSampling: z.function().optional(),
  onAuthorization: z.function().optional(),
  mcpConfig: configFileOptionSchema.optional(),
  codeExecution: codeExecutionConfigSchema.optional(),
  toolSearch: toolSearchConfigSchema.extend({ embeddings: z.union([z.function(), z.literal(false)]).optional() }).optional(),
  webSearch: z.union([webSearchConfigSchema, z.literal(false)]).optional(),
  store: z.union([z.string(), z.custom(isStore, "Expected a store URL or a Store { get, set, delete, list, increment, subscribe, close }")]).optional(),
  mcp: z.strictObject({ startupTimeoutMs: z.number().int().nonnegative().max(MAX_TIMEOUT_MS).optional(), servers: z.array(z.string()).optional(), installTimeoutMs: z.number().int().positive().max(MAX_TIMEOUT_MS).optional(), start: z.enum(["eager", "lazy"]).optional(), waitForInstalls: z.boolean().optional(), tokenStore: z.custom<OAuthTokenStore>(isTokenStore, "Expected a token store { load, save, remove }").optional() }).optional(),
});

/** Throws `INVALID_OPTIONS` listing every problem of `options`. */
export function checkAllOptions(options: unknown): void {
  checkOptions(optionsSchema, options);
}
