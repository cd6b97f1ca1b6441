/**
 * The core's options of `createExecutor` as zod schemas, loaded on demand: only for options the fast
 * check does not vouch for, where zod decides and words every problem (`INVALID_OPTIONS`).
 */
import { z } from "zod";
import { formatJsonPath } from "../json/parse-json-document.js";
import { MAX_TIMEOUT_MS } from "../config/timeout-limits.js";
import { describeZodIssues } from "../config/zod-issues.js";
import { ToolexecError } from "../errors/toolexec-error.js";
import { isLogInterval } from "../log/execution-log.js";
import { resolveCheckedOptions, type CoreExecutorOptions, type ResolvedExecutorOptions } from "./executor-options.js";

const relativePath = z.string().min(1);
/** A file's path relative to the root, or `false` for none: the shape of `toolsConfig` and of plugins' file options. */
export const configFileOptionSchema = z.union([relativePath, z.literal(false)]);
/** The core's option schemas by key, in the order messages list them. */
export const coreOptionSchemas = {
  root: z.string().min(1).optional(),
  watch: z.boolean().optional(),
  toolsConfig: configFileOptionSchema.optional(),
  logDir: z.union([relativePath, z.literal(false)]).optional(),
  log: z
    .strictObject({
      interval: z
        .string()
        .refine(isLogInterval, {
          message: 'Expected an interval like "1d", "12h" or "1M": a whole number of s or m dividing 60, of h dividing 24, or of d or M',
        })
        .optional(),
      maxFiles: z.number().int().positive().optional(),
      redactKeys: z.array(z.union([z.string().min(1), z.instanceof(RegExp)])).optional(),
      maxValueBytes: z.number().int().positive().optional(),
    })
    .optional(),
  plugins: z
    .array(z.looseObject({ name: z.string().min(1), start: z.function() }))
    .optional(),
  defaultTimeoutMs: z.number().int().positive().max(MAX_TIMEOUT_MS).optional(),
  maxConcurrency: z.number().int().positive().optional(),
  maxQueue: z.number().int().nonnegative().optional(),
  reloadDebounceMs: z.number().int().nonnegative().optional(),
  strict: z.boolean().optional(),
  results: z
    .strictObject({
      maxChars: z.number().int().positive().optional(),
      store: z.strictObject({ maxBytes: z.number().int().positive().optional(), ttlMs: z.number().int().positive().max(MAX_TIMEOUT_MS).optional() }).optional(),
    })
    .optional(),
  logger: z
    .looseObject({ debug: z.function(), info: z.function(), warn: z.function(), error: z.function() })
    .optional(),
};

/** Throws `INVALID_OPTIONS` listing every problem of `options` against the strict `schema`. */
export function checkOptions(schema: z.ZodType, options: unknown): void {
  const parsed = schema.safeParse(options ?? {});
  if (parsed.success) return;
  const problems = describeZodIssues(parsed.error.issues, schema, options ?? {}).map(({ path: at, message }) => `${formatJsonPath(at) || "options"}: ${message}`);
  throw new ToolexecError("INVALID_OPTIONS", `Invalid createExecutor options: ${problems.join("; ")}`, { details: { problems } });
}

/**
 * Check the caller's core options (never mutating them) and apply defaults. Throws `INVALID_OPTIONS`.
 * `reservedPluginNames` are the built-in plugins' names, which a host plugin may not take.
 */
export function resolveExecutorOptions(options: CoreExecutorOptions, reservedPluginNames: readonly string[] = []): ResolvedExecutorOptions {
  checkOptions(z.strictObject(coreOptionSchemas), options);
  return resolveCheckedOptions(options, reservedPluginNames);
}

