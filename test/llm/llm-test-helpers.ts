/**
 * A real project with one python script tool whose name providers refuse (`calc.add`), for the tool
 * loops; with `everything`, also server-everything over stdio (`everything__echo` and its other tools).
 */
import { afterEach } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { EVERYTHING } from "../mcp/mcp-test-helpers.js";

const executors = new Set<Executor>();
afterEach(async () => {
  await Promise.all([...executors].map((executor) => executor.close()));
  executors.clear();
});

/** `a` and `b` are required numbers; `note` is optional and does not accept null (strict mode's nulls must be removed). */
export const ADD_SCHEMA = {
  type: "object",
  properties: { a: { type: "number" }, b: { type: "number" }, note: { type: "string" } },
  required: ["a", "b"],
  additionalProperties: false,
};

export async function startCalculator(options: { everything?: boolean } = {}): Promise<Executor> {
  const mcp = options.everything ? { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } } : false;
  const project = createTempProject({ tools: { tools: [toolEntry("calc.add", "python", "add.py", { description: "Add two numbers.", inputSchema: ADD_SCHEMA })] }, mcp });
  project.useFixtures("add.py");
  const executor = await createExecutor({ root: project.root, watch: false, logDir: false, ...(options.everything ? { mcp: { startupTimeoutMs: 15_000 } } : { mcpConfig: false }) });
  executors.add(executor);
  return executor;
}
