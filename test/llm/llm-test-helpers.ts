/** A real project with one python script tool whose name providers refuse (`calc.add`), for the tool loops. */
import { afterEach } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";

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

export async function startCalculator(): Promise<Executor> {
  const project = createTempProject({ tools: { tools: [toolEntry("calc.add", "python", "add.py", { description: "Add two numbers.", inputSchema: ADD_SCHEMA })] } });
  project.useFixtures("add.py");
  const executor = await createExecutor({ root: project.root, watch: false, logDir: false, mcpConfig: false });
  executors.add(executor);
  return executor;
}
