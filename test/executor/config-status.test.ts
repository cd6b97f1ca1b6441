/** `tools:changed` for every change of the tool list (reloads included), and `configStatus()` after good and bad edits. */
import { describe, expect, it } from "vitest";
import { createExecutor, type ExecutorEvents } from "../../src/index.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";

const echo = (name: string, description = `Echo (${name})`) => toolEntry(name, "python", "echo.py", { description });

async function open() {
  const project = createTempProject();
  project.useFixtures("echo.py");
  project.write("tools.json", { tools: [echo("a"), echo("b")] });
  const executor = await createExecutor({ root: project.root, watch: false, logDir: false });
  const changes: Array<ExecutorEvents["tools:changed"]> = [];
  executor.on("tools:changed", (event) => changes.push(event));
  return { project, executor, changes };
}

describe("tools:changed on reload", () => {
  it("names the tools added, removed and changed by a config reload, and stays quiet when nothing changed", async () => {
    const { project, executor, changes } = await open();
    try {
      project.write("tools.json", { tools: [echo("a", "A new description"), echo("c")] });
      expect(await executor.reload()).toMatchObject({ ok: true });
      expect(changes).toEqual([{ tools: ["a", "c", "read_result"], added: ["c"], removed: ["b"], changed: ["a"] }]);

      project.write("tools.json", { tools: [echo("a", "A new description"), echo("c")] });
      expect(await executor.reload()).toMatchObject({ ok: true });
      expect(changes).toHaveLength(1);
    } finally {
      await executor.close();
    }
  });
});

describe("configStatus", () => {
  it("is ok after start-up, stale with the rejected change's message after a bad edit, and ok again once fixed", async () => {
    const { project, executor } = await open();
    try {
      const first = executor.configStatus();
      expect(first).toMatchObject({ state: "ok", warnings: [] });
      expect(first.files).toEqual([project.path("tools.json"), project.path("mcp.json")]);
      expect(first).not.toHaveProperty("lastError");

      const errors: string[] = [];
      executor.on("config:error", ({ message }) => errors.push(message));
      project.write("tools.json", { tools: [{ ...echo("a"), timeoutMs: "fast" }] });
      expect(await executor.reload()).toMatchObject({ ok: false });
      const stale = executor.configStatus();
      expect(stale).toMatchObject({ state: "stale", loadedAt: first.loadedAt, lastError: { code: "CONFIG_INVALID", message: errors[0] } });
      expect(stale.lastError!.message).toContain("timeoutMs");
      expect(await executor.callTool("b", {})).toMatchObject({ ok: true });

      project.write("tools.json", { tools: [echo("a")] });
      expect(await executor.reload()).toMatchObject({ ok: true });
      const fixed = executor.configStatus();
      expect(fixed.state).toBe("ok");
      expect(fixed).not.toHaveProperty("lastError");
      expect(fixed.loadedAt).toBeGreaterThanOrEqual(stale.lastError!.at);
    } finally {
      await executor.close();
    }
    expect(() => executor.configStatus()).toThrow(expect.objectContaining({ code: "EXECUTOR_CLOSED" }));
  });
});
