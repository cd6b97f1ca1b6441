/**
 * `queueMs` in the execution log: a call that waited for its turn (a tool without `parallel` runs one
 * call at a time) logs how long it waited; a call that started at once has no `queueMs`. This is the
 * queue wait `toolexec logs` summarizes.
 */
import { describe, expect, it } from "vitest";
import { createExecutor } from "../../src/index.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { executorOptions, readLogRecords } from "./log-test-helpers.js";

describe("queue wait in the execution log", () => {
  it("logs queueMs on the call that waited for its turn, and none on the one that did not", async () => {
    const project = createTempProject({ tools: { tools: [toolEntry("slow", "shell", "slow.sh")] } });
    project.write("tools/slow.sh", "sleep 0.3\necho '{}'\n");
    const executor = await createExecutor(executorOptions(project, { logDir: "logs" }));
    const [first, second] = await Promise.all([executor.callTool("slow", {}), executor.callTool("slow", {})]);
    await executor.close();
    expect(first.ok && second.ok).toBe(true);
    const records = readLogRecords(project.path("logs"));
    const waited = records.find((record) => record.executionId === second.executionId)!;
    const started = records.find((record) => record.executionId === first.executionId)!;
    expect(started).not.toHaveProperty("queueMs");
    // It waited for the first call's whole run (a 0.3 s sleep).
    expect(waited.queueMs).toBeGreaterThanOrEqual(250);
    expect(waited.queueMs as number).toBeLessThan(waited.durationMs as number);
  });
});
