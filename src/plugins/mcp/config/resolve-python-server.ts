/**
 * mcp.json's `"python": { "server": "servers/weather.py", "requirements": [...] }`: a Python MCP
 * server file (FastMCP of the `mcp` SDK 1.x or of `fastmcp`, MCPServer of the `mcp` SDK 2.x) that
 * toolexec runs on stdio in its own environment. Resolved here into the stdio command it amounts to
 * — the base interpreter running toolexec's launcher on the file — plus what the connection needs to
 * swap in the environment's interpreter once that environment is built (python-server-start.ts).
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { pyprojectBeside, readRequirementsFile, checkRequirement, type PythonEnvironmentSpec, type PythonRequirements } from "../../../core/python-environments/python-requirements.js";
import type { McpServerEntryFile } from "./mcp-server-schema.js";
import { TRANSPORT_SPELLINGS } from "./mcp-config-constants.js";
import type { ResolveProblem } from "./resolve-mcp-server.js";

/** The launcher that finds a file's server object and runs it on stdio (shipped beside this plugin). */
export const PYTHON_SERVER_LAUNCHER = fileURLToPath(new URL("../python/toolexec_mcp_server.py", import.meta.url));

/** How a Python server file is started, once resolved. */
export interface PythonServerLaunch {
  /** The server file (absolute). */
  file: string;
  /** Its server object, when `server` names one after a colon. */
  object?: string;
  /** The base interpreter as configured (`python3`, a path), resolved from `root`. */
  interpreter: string;
  /** The project folder, which relative paths and messages are from. */
  root: string;
  /** Its environment, built on the server's first start; absent: the interpreter as it is. */
  environment?: PythonEnvironmentSpec;
}

/** `servers/weather.py:app` → the file and the object; a colon elsewhere (`C:\…`) is part of the path. */
function splitTarget(written: string): { file: string; object?: string } {
  const match = /^(.+\.py):([A-Za-z_][A-Za-z0-9_]*)$/.exec(written);
  return match ? { file: match[1]!, object: match[2]! } : { file: written };
}

function resolveRequirementsOf(written: string | string[] | undefined, file: string, root: string, problems: ResolveProblem[]): PythonRequirements | undefined {
  const at = ["python", "requirements"];
  if (written === undefined) return pyprojectBeside(file);
  if (typeof written === "string") {
    const read = readRequirementsFile(root, written, "");
    if (!read.ok) problems.push({ path: at, message: read.message, environmental: true });
    return read.ok ? read.requirements : undefined;
  }
  const before = problems.length;
  written.forEach((requirement, index) => {
    const problem = checkRequirement(requirement);
    if (problem) problems.push({ path: [...at, index], message: problem });
  });
  return problems.length === before ? { kind: "list", requirements: written.map((requirement) => requirement.trim()) } : undefined;
}

/**
 * The entry as the stdio command it amounts to, what to launch, and the problems of its `python` key.
 *
 * @example
 * pythonServerEntry("weather", { python: { server: "servers/weather.py", requirements: ["mcp==1.26.0"] } }, root);
 * // { entry: { command: "python3", args: [launcher, "/project/servers/weather.py", ""] }, launch: { python: {...}, packageRunner: "its Python environment" }, problems: [] }
 */
export function pythonServerEntry(name: string, written: McpServerEntryFile, root: string): { entry: McpServerEntryFile; launch: { python: PythonServerLaunch; packageRunner?: string }; problems: ResolveProblem[] } {
  const python = written.python!;
  const problems: ResolveProblem[] = [];
  for (const key of ["command", "url", "serverUrl", "headers", "oauth", "auth"] as const) {
    if (written[key] === undefined) continue;
    const message = key === "command" ? 'Give either "python" (toolexec runs the file in its own environment) or "command", not both' : `"${key}" is for http and sse servers; this is a Python server (it has "python"), run on stdio`;
    problems.push({ path: [key], message, atKey: true });
  }
  const spelledKey = written.type !== undefined ? "type" : "transport";
  const spelled = written[spelledKey];
  if (spelled !== undefined && TRANSPORT_SPELLINGS[spelled] !== "stdio") problems.push({ path: [spelledKey], message: `A Python server runs on stdio, got "${spelledKey}": ${JSON.stringify(spelled)}` });
  const target = splitTarget(python.server);
  const file = path.resolve(root, target.file);
  if (!target.file.endsWith(".py")) {
    problems.push({ path: ["python", "server"], message: `Expected a Python file ending in .py, optionally with its server object ("servers/weather.py:app"), got ${JSON.stringify(python.server)}` });
  } else if (!existsSync(file) || !statSync(file).isFile()) {
    problems.push({ path: ["python", "server"], message: `Python server file not found: ${target.file}`, environmental: true, reason: `its file ${target.file} is missing` });
  }
  const requirements = resolveRequirementsOf(python.requirements, file, root, problems);
  const environment = requirements && { requirements, ...(python.installer === undefined ? {} : { installer: python.installer }), source: `MCP server "${name}"` };
  const interpreter = python.interpreter ?? "python3";
  const { python: _python, type: _type, transport: _transport, ...rest } = written;
  const entry = { ...rest, command: interpreter, args: [PYTHON_SERVER_LAUNCHER, file, target.object ?? "", ...(written.args ?? [])] };
  const launch = { file, ...(target.object === undefined ? {} : { object: target.object }), interpreter, root, ...(environment ? { environment } : {}) };
  // A first start that may build the environment gets the package runners' first-start budget and `installing` state.
  return { entry, launch: { python: launch, ...(environment ? { packageRunner: "its Python environment" } : {}) }, problems };
}
