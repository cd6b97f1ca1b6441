/**
 * The shape of tools.json, as a strict zod schema. The published JSON Schema
 * (`schema/tools.schema.json`) is generated from it by `npm run schema`.
 */
import { z } from "zod";
import { isKeySection, type OwnedSection } from "./config-sections.js";
import { TOOL_NAME_PATTERN } from "../tool-names.js";
import { entryPythonSchema, requirementsSchema } from "../python-environments/python-environment-schemas.js";
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS } from "./timeout-limits.js";
import { DEFAULT_MAX_OUTPUT_BYTES, MIN_PYTHON_MEMORY_LIMIT_MB, PYTHON_FUNCTION_PATTERN } from "./tools-config-constants.js";

export { DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, MIN_PYTHON_MEMORY_LIMIT_MB, PYTHON_FUNCTION_PATTERN };

const positiveInteger = z.number().int().positive();
/** A budget in ms: a positive integer up to setTimeout's ceiling. */
export const timeoutSchema = positiveInteger.max(MAX_TIMEOUT_MS);
/** A tool's `env`, shared by every tool source that starts a process. */
export const toolEnvironmentSchema = z
  .record(z.string(), z.string())
  .describe("Environment variables for the script, added to a small allowlist of host variables. Values may use ${VAR}, ${VAR:-default} or ${env:VAR} to take a host variable; all values are redacted from logs.");

/** A Python worker's address-space cap, shared by function tools and Python modules. */
export const memoryLimitSchema = z
  .number()
  .int()
  .min(MIN_PYTHON_MEMORY_LIMIT_MB)
  .describe("Function tools only: the address-space cap of the tool's Python worker in MiB; an allocation past it fails the call with MEMORY_LIMIT and a fresh worker takes the next call (default: no cap).");

const timeout = timeoutSchema;
const environment = toolEnvironmentSchema;
const memoryLimit = memoryLimitSchema;

const annotationsSchema = z
  .strictObject({
    title: z.string().optional().describe("Human-readable name of the tool."),
    readOnlyHint: z.boolean().optional().describe("The tool does not change its environment."),
    destructiveHint: z.boolean().optional().describe("The tool may make destructive updates."),
    idempotentHint: z.boolean().optional().describe("Calling it again with the same arguments has no further effect."),
    openWorldHint: z.boolean().optional().describe("The tool interacts with external entities (network, other systems)."),
  })
  .describe("MCP tool annotations: hints for clients and models.");

/** A result budget, in tools.json's `defaults`, a tools.json tool and an mcp.json server. */
export const resultsSettingsSchema = z
  .strictObject({
    maxChars: positiveInteger
      .optional()
      .describe("Characters of a result a model gets (LLM adapters, serve); past it the model gets the head and a handle that read_result pages through (default 25000)."),
  })
  .describe("The result budget: how much of a result reaches a model.");

const defaultsSchema = z
  .strictObject({
    timeoutMs: timeout.optional().describe(`Budget per call in ms, queueing included (default: the executor's defaultTimeoutMs, ${DEFAULT_TIMEOUT_MS}).`),
    maxOutputBytes: positiveInteger.optional().describe(`Cap on a script's stdout in bytes (default ${DEFAULT_MAX_OUTPUT_BYTES}).`),
    parallel: z.boolean().optional().describe("Whether calls of one tool may overlap (default false)."),
    python: z.string().min(1).optional().describe("Python interpreter: a command on PATH or a path relative to the project (default python3)."),
    env: environment.optional(),
    memoryLimitMb: memoryLimit.optional(),
    results: resultsSettingsSchema.optional(),
  })
  .describe("Values every tool inherits unless it sets its own.");

export const toolEntrySchema = z
  .strictObject({
    name: z.string().regex(TOOL_NAME_PATTERN, {
      message: "Expected a tool name of 1-128 characters from A-Z a-z 0-9 _ - . without \"__\"",
    }).describe("Unique tool name: 1-128 characters from A-Z a-z 0-9 _ - . (no \"__\", which namespaces MCP tools)."),
    title: z.string().optional().describe("Human-readable name shown by clients."),
    description: z.string().min(1).optional().describe("What the tool does and when to use it, written for an LLM. Required for script tools; a function tool takes its docstring's summary when absent."),
    runtime: z.enum(["python", "shell", "node"]).optional().describe("How the script runs: python (resolved interpreter), shell (bash --noprofile --norc) or node. Script tools only (required there)."),
    script: z.string().min(1).optional().describe("Path of the script, relative to tools/. A tool has either \"script\" (with \"runtime\") or \"function\"."),
    function: z.string().regex(PYTHON_FUNCTION_PATTERN, {
      message: 'Expected "file.py:function": a Python file relative to tools/, a colon, and a function name',
    }).optional().describe("A Python function to run on a warm worker, as \"file.py:function\" (file relative to tools/). Its schemas come from its type hints and docstring unless given."),
    args: z.array(z.string()).optional().describe("Extra command-line arguments passed to the script."),
    interpreter: z.string().min(1).optional().describe("Interpreter for this tool (python runtime), e.g. .venv/bin/python."),
    inputSchema: z.record(z.string(), z.unknown()).optional().describe("JSON Schema of the arguments object. Required for script tools; for a function tool it replaces the schema derived from the type hints."),
    outputSchema: z.record(z.string(), z.unknown()).optional().describe("JSON Schema the result is checked against."),
    annotations: annotationsSchema.optional(),
    timeoutMs: timeout.optional().describe("Budget per call in ms, queueing included; at the deadline the whole process tree is killed."),
    parallel: z.boolean().optional().describe("Whether calls of this tool may overlap (default false: one at a time, in arrival order)."),
    env: environment.optional(),
    cwd: z.string().min(1).optional().describe("Working directory, relative to the project root (default: the root)."),
    maxOutputBytes: positiveInteger.optional().describe("Cap on stdout in bytes; past it the script is killed (OUTPUT_TOO_LARGE)."),
    memoryLimitMb: memoryLimit.optional(),
    results: resultsSettingsSchema.optional(),
    python: entryPythonSchema.optional(),
  })
  .describe("One local tool: a script (\"runtime\" + \"script\") or a Python function (\"function\").");

/** The project's Python settings: the environment every Python tool without its own runs in, and the workers' limits. */
export const projectPythonSchema = z
  .strictObject({
    requirements: requirementsSchema.optional(),
    installer: z.enum(["uv", "pip"]).optional().describe("Who builds the environments: uv (the default when uv is on PATH) or the interpreter's venv + pip (the default otherwise)."),
    maxWorkers: positiveInteger.max(64).optional().describe("Warm workers per interpreter and environment at most: calls of parallel tools overlap up to this (default: between 2 and 4, by the machine's cores)."),
    maxAsyncCallsPerWorker: positiveInteger.max(1000).optional().describe("Calls of parallel async def tools one worker runs at once on its event loop (default 10); sync tools take a worker each."),
  })
  .describe("Python settings of the project: its tools' environment and their workers.");

/** tools.json's own keys; the plugins' keys (`codeExecution`, `webSearch`, ...) join them through `toolsConfigSchemaWith`. */
export const toolsConfigSchema = z
  .strictObject({
    $schema: z.string().optional().describe("JSON Schema of this file, for editors."),
    defaults: defaultsSchema.optional(),
    tools: z.array(toolEntrySchema).describe("The local tools: scripts and Python functions."),
    python: projectPythonSchema.optional(),
  })
  .describe("toolexec local tools (tools.json).");

const composed = new WeakMap<readonly OwnedSection[], z.ZodType>();

/**
 * tools.json's schema with each plugin's key added (optional, checked by the plugin's schema), so an
 * unknown key is still an error unless a plugin claims it, and the published JSON Schema has them all.
 */
export function toolsConfigSchemaWith(sections: readonly OwnedSection[]): typeof toolsConfigSchema {
  const known = composed.get(sections);
  if (known) return known as typeof toolsConfigSchema;
  const shape: Record<string, z.ZodType> = {};
  for (const { section } of sections) if (isKeySection(section)) shape[section.key] = section.schema.optional();
  const schema = toolsConfigSchema.extend(shape) as unknown as typeof toolsConfigSchema;
  composed.set(sections, schema);
  return schema;
}

export type ToolsConfigFile = z.infer<typeof toolsConfigSchema>;
export type ToolEntryFile = z.infer<typeof toolEntrySchema>;
