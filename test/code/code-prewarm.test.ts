/**
 * Code mode warm on first use: with code execution enabled, one runtime starts in the background
 * when the executor starts (the first run does not wait for one); `prewarm: false` starts none
 * until code first runs, for hosts that rarely or never run code.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
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

  it("a start that fails after the first runtime was spawned (saved tools unreadable) leaves no runtime running", async () => {
    const project = createTempProject({ tools: { tools: [], codeExecution: { enabled: true } } });
    // A file where the saved tools' folder belongs: reading it fails once the pool has spawned its runtime.
    mkdirSync(path.join(project.root, ".toolexec"), { recursive: true });
    writeFileSync(path.join(project.root, ".toolexec", "saved-tools"), "not a folder");
    await expect(createExecutor({ root: project.root, watch: false, logDir: false, logger: silentLogger })).rejects.toThrow(/saved-tools/);
    // Killed, so gone once the kernel has ended it: polled, with room for a busy machine.
    await vi.waitFor(() => expect(runtimes()).toEqual([]), { timeout: 15_000, interval: 50 });
  });

  it("is checked like the other keys", async () => {
    const project = createTempProject({ tools: { tools: [], codeExecution: { enabled: true, prewarm: "yes" } } });
    await expect(createExecutor({ root: project.root, watch: false, logDir: false, logger: silentLogger })).rejects.toThrow(/codeExecution\.prewarm: Expected a boolean, got "yes"/);
  });
});
