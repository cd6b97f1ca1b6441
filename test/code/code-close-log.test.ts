/**
 * Regression: a code run interrupted by `close()` is logged like any other run (a code excerpt
 * and the input's size, not the whole code and input), though the plugin is closed by the time
 * the line is written.
 */
import path from "node:path";
import { expect, it } from "vitest";
import { readLogRecords } from "../log/log-test-helpers.js";
import { openCodeExecutor } from "./code-test-helpers.js";

it("logs a run cut short by close() with the 500-character excerpt and the input's size", async () => {
  const setup = await openCodeExecutor({ logDir: ".toolexec/logs" });
  try {
    const code = `// ${"x".repeat(2_000)}\nwhile (true) {}`;
    const input = { blob: "y".repeat(5_000) };
    const started = new Promise<string>((resolve) => setup.executor.on("code:start", ({ executionId }) => resolve(executionId)));
    const running = setup.executor.executeCode({ code, input });
    const executionId = await started;
    await setup.executor.close();
    expect(await running).toMatchObject({ ok: false, error: { code: "EXECUTOR_CLOSED" } });

    const line = readLogRecords(path.join(setup.project.root, ".toolexec/logs")).find((record) => record.executionId === executionId)!;
    expect(line).toMatchObject({ tool: "code_execution", ok: false, codeLength: code.length, inputBytes: Buffer.byteLength(JSON.stringify(input)) });
    expect((line.code as string).length).toBe(500);
    expect(line).not.toHaveProperty("arguments");
    expect(JSON.stringify(line)).not.toContain("y".repeat(600));
  } finally {
    await setup.close();
  }
});
