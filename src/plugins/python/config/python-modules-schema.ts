/** The shape of tools.json's `pythonModules`, as a strict zod schema (published in schema/tools.schema.json). */
import { z } from "zod";
import { memoryLimitSchema, timeoutSchema, toolEnvironmentSchema } from "../../../core/config/tools-config-schema.js";
import { entryPythonSchema } from "../../../core/python-environments/python-environment-schemas.js";

const modulePath = z.string().min(1).describe("A .py file or a folder (its .py files not starting with _ or .), relative to tools/.");

export const pythonModuleSchema = z.union([
  modulePath,
  z
    .strictObject({
      path: modulePath,
      interpreter: z.string().min(1).optional().describe("Interpreter for these tools, e.g. .venv/bin/python (default: defaults.python)."),
      env: toolEnvironmentSchema.optional(),
      cwd: z.string().min(1).optional().describe("Working directory of their worker, relative to the project root (default: the root)."),
      timeoutMs: timeoutSchema.optional().describe("Budget per call in ms, unless a tool's @tool(timeout=...) sets its own."),
      parallel: z.boolean().optional().describe("Whether calls of one tool may overlap, unless a tool's @tool(parallel=...) says."),
      memoryLimitMb: memoryLimitSchema.optional(),
      python: entryPythonSchema.optional().describe("The Python environment these tools' workers run in; replaces the project's python.requirements (and a pyproject.toml beside the files) for them."),
    })
    .describe("A file or folder with settings for the tools found in it."),
]);

/**
 * An item the item schema refuses becomes a hole (`.catch`) rather than failing the list: the
 * resolver checks each item itself, so the valid ones are still resolved and every problem of the
 * list is found in one round. The published JSON Schema is the item schema's all the same.
 */
export const pythonModulesSchema = z
  .array(pythonModuleSchema.catch(undefined as never))
  .describe("Python files (or folders of them) in tools/ whose functions marked @tool or @mcp.tool() become tools with no entry here. Opt-in: listing a file lets toolexec import it.");

export type PythonModuleFile = z.infer<typeof pythonModuleSchema>;
