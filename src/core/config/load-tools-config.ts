/** Loads tools.json into resolved script-tool entries, with every semantic check the schema cannot make. */
import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import type { ConfigIssue } from "../errors/config-error.js";
import type { JsonSchema, ToolAnnotations } from "../plugin-contract.js";
import { checkSchema } from "../schema/schema-validator.js";
import { formatJsonPath, type JsonDocument, type JsonPath } from "./parse-json-document.js";
import { readJsonConfig } from "./read-json-config.js";
import {
  DEFAULT_MAX_OUTPUT_BYTES,
  DEFAULT_TIMEOUT_MS,
  RESERVED_TOOL_NAMES,
  toolsConfigSchema,
  type ToolsConfigFile,
} from "./tools-config-schema.js";

/** One tools.json tool with defaults applied and paths made absolute: the script plugin's entry. */
export interface ScriptToolEntry {
  name: string;
  title?: string;
  description: string;
  runtime: "python" | "shell" | "node";
  /** Absolute path of the script. */
  script: string;
  /** The script as written in tools.json, relative to tools/. */
  scriptPath: string;
  args: string[];
  /** Python command or absolute interpreter path (python runtime only). */
  interpreter?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  timeoutMs: number;
  parallel: boolean;
  env: Record<string, string>;
  /** Absolute working directory. */
  cwd: string;
  maxOutputBytes: number;
}

export interface LoadedToolsConfig {
  tools: ScriptToolEntry[];
  /** Problems that do not stop loading, such as a script that does not exist yet. */
  warnings: ConfigIssue[];
}

export type LoadToolsResult =
  | { status: "ok"; config: LoadedToolsConfig }
  | { status: "missing" | "invalid"; issues: ConfigIssue[] };

function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** Interpreters with a slash are paths relative to the root; bare names are looked up on PATH. */
function resolveInterpreter(root: string, interpreter: string | undefined): string | undefined {
  if (interpreter === undefined) return undefined;
  return interpreter.includes("/") ? path.resolve(root, interpreter) : interpreter;
}

/** Read and resolve `tools.json` (or `fileName`) under `root`. Never throws for file content. */
export async function loadToolsConfig(root: string, fileName: string): Promise<LoadToolsResult> {
  const absolutePath = path.resolve(root, fileName);
  const file = path.relative(root, absolutePath) || fileName;
  const read = await readJsonConfig(absolutePath, file, toolsConfigSchema, "create it (see docs/config.md) or pass `toolsConfig: false` to run without local tools");
  if (read.status !== "ok") return read;
  return resolveTools(root, file, read.data, read.document);
}

function resolveTools(root: string, file: string, data: ToolsConfigFile, document: JsonDocument): LoadToolsResult {
  const issues: ConfigIssue[] = [];
  const warnings: ConfigIssue[] = [];
  const issue = (list: ConfigIssue[], at: JsonPath, message: string) =>
    list.push({ file, path: formatJsonPath(at), ...document.locate(at), message });
  const toolsDir = path.join(root, "tools");
  const realToolsDir = existsSync(toolsDir) ? realpathSync(toolsDir) : toolsDir;
  const defaults = data.defaults ?? {};
  const firstIndexByName = new Map<string, number>();
  const tools: ScriptToolEntry[] = [];

  data.tools.forEach((tool, index) => {
    const at = (...rest: JsonPath) => ["tools", index, ...rest];
    const previous = firstIndexByName.get(tool.name);
    if (previous !== undefined) issue(issues, at("name"), `Duplicate tool name "${tool.name}" (first defined at tools[${previous}]); tool names must be unique`);
    else firstIndexByName.set(tool.name, index);
    if ((RESERVED_TOOL_NAMES as readonly string[]).includes(tool.name)) {
      issue(issues, at("name"), `Tool name "${tool.name}" is reserved for a built-in tool; choose another name`);
    }

    const script = path.resolve(toolsDir, tool.script);
    if (path.isAbsolute(tool.script) || !isInside(toolsDir, script)) {
      issue(issues, at("script"), `Expected a path inside tools/, got ${JSON.stringify(tool.script)}: scripts may not escape the tools folder`);
    } else if (!existsSync(script)) {
      issue(warnings, at("script"), `Script not found: tools/${tool.script} (calls will fail with SCRIPT_MISSING until it exists)`);
    } else if (!isInside(realToolsDir, realpathSync(script))) {
      issue(issues, at("script"), `Expected a script inside tools/, but tools/${tool.script} links to ${realpathSync(script)} outside it`);
    }

    for (const key of ["inputSchema", "outputSchema"] as const) {
      const schema = tool[key];
      if (schema === undefined) continue;
      for (const problem of checkSchema(schema)) {
        issue(issues, at(key, ...problem.path), `Invalid JSON Schema: ${problem.message}`);
      }
    }
    if (tool.inputSchema.type !== "object") {
      issue(issues, at("inputSchema", "type"), `Expected "object" (arguments are always an object), got ${JSON.stringify(tool.inputSchema.type) ?? "nothing"}`);
    }

    const cwd = path.resolve(root, tool.cwd ?? ".");
    if (!isInside(root, cwd)) issue(issues, at("cwd"), `Expected a folder inside the project, got ${JSON.stringify(tool.cwd)}`);
    if (tool.interpreter !== undefined && tool.runtime !== "python") {
      issue(issues, at("interpreter"), `"interpreter" applies to the python runtime only, got runtime ${JSON.stringify(tool.runtime)}`);
    }

    tools.push({
      name: tool.name,
      ...(tool.title === undefined ? {} : { title: tool.title }),
      description: tool.description,
      runtime: tool.runtime,
      script,
      scriptPath: tool.script,
      args: tool.args ?? [],
      ...(tool.runtime === "python" ? { interpreter: resolveInterpreter(root, tool.interpreter ?? defaults.python) ?? "python3" } : {}),
      inputSchema: tool.inputSchema,
      ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
      ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
      timeoutMs: tool.timeoutMs ?? defaults.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      parallel: tool.parallel ?? defaults.parallel ?? false,
      env: { ...defaults.env, ...tool.env },
      cwd,
      maxOutputBytes: tool.maxOutputBytes ?? defaults.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    });
  });
  if (issues.length > 0) return { status: "invalid", issues };
  return { status: "ok", config: { tools, warnings } };
}
