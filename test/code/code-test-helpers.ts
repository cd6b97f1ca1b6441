/**
 * Shared setup for code-mode tests: a real project folder with tiny script tools (Python and
 * bash), and an executor with code execution enabled. Executors are shared per file (runtimes
 * are child processes; starting them per test would dominate the run time).
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createExecutor, type Executor, type ExecutorOptions } from "../../src/index.js";
import { toolEntry } from "../helpers/temp-project.js";

export const silentLogger = { debug() {}, info() {}, warn() {}, error() {} };

/** Tiny tools named for what they do. */
export const SCRIPTS: Record<string, string> = {
  "echo.py": 'import json, sys\njson.dump({"echo": json.load(sys.stdin)}, sys.stdout)\n',
  "fail.py": 'import sys\nsys.stderr.write("ValueError: bad row 7\\n")\nsys.exit(2)\n',
  // Writes its pid where told, then sleeps; a cancelled call kills it.
  "slow.py": 'import json, os, sys, time\nargs = json.load(sys.stdin)\nopen(args["pidFile"], "w").write(str(os.getpid()))\ntime.sleep(args.get("seconds", 30))\nprint("slept")\n',
  "upper.sh": 'python3 -c \'import json,sys; print(json.dumps(json.load(sys.stdin)["text"].upper()))\'\n',
};

const tool = toolEntry;

/** The script tools of {@link SCRIPTS}, as tools.json entries. */
export const SCRIPT_TOOLS = [
  tool("echo", "python", "echo.py", { parallel: true, description: "Echo the arguments back as { echo: args }." }),
  tool("fail", "python", "fail.py", { parallel: true }),
  tool("slow", "python", "slow.py", { parallel: true }),
  tool("upper", "shell", "upper.sh", { parallel: true, inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }),
];

export interface CodeProject {
  root: string;
  remove(): void;
}

/** A project folder with the scripts, tools.json (plus `toolsJson` keys) and an empty mcp.json. */
export function writeCodeProject(toolsJson: Record<string, unknown> = {}): CodeProject {
  const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-code-"));
  mkdirSync(path.join(root, "tools"));
  for (const [name, text] of Object.entries(SCRIPTS)) writeFileSync(path.join(root, "tools", name), text);
  writeFileSync(path.join(root, "tools.json"), JSON.stringify({ tools: SCRIPT_TOOLS, ...toolsJson }, null, 2));
  writeFileSync(path.join(root, "mcp.json"), JSON.stringify({ mcpServers: {} }));
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

export interface CodeSetup {
  executor: Executor;
  project: CodeProject;
  close(): Promise<void>;
}

/**
 * A project and an executor with code execution enabled (small pool, no log, no watcher unless
 * asked). `options.codeExecution` is merged over `{ enabled: true, poolSize: 2 }`.
 */
export async function openCodeExecutor(options: ExecutorOptions = {}, toolsJson: Record<string, unknown> = {}): Promise<CodeSetup> {
  const project = writeCodeProject(toolsJson);
  const executor = await createExecutor({
    watch: false,
    logDir: false,
    logger: silentLogger,
    ...options,
    root: project.root,
    codeExecution: { enabled: true, poolSize: 2, ...options.codeExecution },
  });
  return {
    executor,
    project,
    async close() {
      await executor.close();
      project.remove();
    },
  };
}
