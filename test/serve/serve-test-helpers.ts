/** A served project for serve tests: local script tools, server-everything upstream over stdio, code mode, human input. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createExecutor, type Executor, type ExecutorOptions } from "../../src/index.js";
import { createTempProject, toolEntry, type TempProject } from "../helpers/temp-project.js";
import { EVERYTHING } from "../mcp/mcp-test-helpers.js";

export const silentLogger = { debug() {}, info() {}, warn() {}, error() {} };

/** Writes its pid to `pidFile`, then sleeps: a cancelled call must kill it. */
const SLOW_PY = 'import json, os, sys, time\nargs = json.load(sys.stdin)\nopen(args["pidFile"], "w").write(str(os.getpid()))\ntime.sleep(60)\n';

/** The project lives until the file's tests end: it is made once in beforeAll. */
export async function servedProject(options: ExecutorOptions = {}): Promise<{ project: TempProject; executor: Executor }> {
  const project = createTempProject({ sharedByFile: true });
  project.useFixtures("echo.py");
  project.write("tools/slow.py", SLOW_PY);
  project.write("tools.json", {
    tools: [
      toolEntry("echo", "python", "echo.py", { parallel: true, description: "Echo the arguments back." }),
      toolEntry("slow", "python", "slow.py", { parallel: true, inputSchema: { type: "object", properties: { pidFile: { type: "string" } }, required: ["pidFile"] } }),
    ],
    codeExecution: { enabled: true, poolSize: 1 },
  });
  project.write("mcp.json", { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } });
  const executor = await createExecutor({ root: project.root, logDir: false, logger: silentLogger, reloadDebounceMs: 20, onHumanInput: async () => "yes", ...options });
  return { project, executor };
}

/** An SDK client connected to `url` over Streamable HTTP. */
export async function httpClient(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "serve-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}
