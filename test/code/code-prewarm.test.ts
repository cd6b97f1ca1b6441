/**
 * Code mode warm on first use: with code execution enabled, one runtime starts in the background
 * when the executor starts (the first run does not wait for one); `prewarm: false` starts none
 * until code first runs, for hosts that rarely or never run code.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createExecutor } from "../../src/index.js";
import { childPids } from "../helpers/processes.js";
import { createTempProject } from "../helpers/temp-project.js";
import { silentLogger } from "./code-test-helpers.js";

/** This process's code runtimes (child processes running runtime-main.mjs). */
function runtimes(): number[] {
  return childPids().filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("runtime-main");
    } catch {
      return false;
    }
  });
}

async function codeExecutor(codeExecution: Record<string, unknown>) {
  const project = createTempProject({ tools: { tools: [], codeExecution: { enabled: true, poolSize: 2, ...codeExecution } } });
  return createExecutor({ root: project.root, watch: false, logDir: false, logger: silentLogger });
}

describe("codeExecution.prewarm", () => {
  it("starts one runtime when the executor starts, before any run, and the first run uses it", async () => {
    const executor = await codeExecutor({});
    try {
      const started = runtimes();
      expect(started).toHaveLength(1);
      expect(await executor.executeCode({ code: "1 + 1" })).toMatchObject({ ok: true, value: 2 });
      expect(runtimes()).toEqual(started);
    } finally {
      await executor.close();
    }
  });

  it("false: no runtime until code first runs", async () => {
    const executor = await codeExecutor({ prewarm: false });
    try {
      expect(runtimes()).toEqual([]);
      expect(await executor.executeCode({ code: "1 + 1" })).toMatchObject({ ok: true, value: 2 });
      expect(runtimes()).toHaveLength(1);
    } finally {
      await executor.close();
    }
  });

  it("is checked like the other keys", async () => {
    const project = createTempProject({ tools: { tools: [], codeExecution: { enabled: true, prewarm: "yes" } } });
    await expect(createExecutor({ root: project.root, watch: false, logDir: false, logger: silentLogger })).rejects.toThrow(/codeExecution\.prewarm: Expected a boolean, got "yes"/);
  });
});
