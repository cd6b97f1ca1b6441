/**
 * How the public Executor is put together (src/compose-surfaces.ts): forwarded methods look their API
 * up on every call and fail the way the API's own method would; composition keeps getters, keeps
 * plain values read-only and refuses a name offered twice. Then the real executor: every member of
 * every surface is there, and after close() the synchronous ones throw and the others reject.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { composeSurfaces, forwardMethods } from "../../src/compose-surfaces.js";
import { createExecutor, isToolexecError } from "../../src/index.js";

interface Counter {
  count(): number;
  bump(by: number): Promise<number>;
}

const counter = (start: number): Counter => {
  let value = start;
  return { count: () => value, bump: async (by) => (value += by) };
};

describe("forwardMethods", () => {
  it("looks the API up on every call, so a replaced API serves the next call", async () => {
    let current = counter(1);
    const forwarded = forwardMethods(() => current, { count: "sync", bump: "async" });
    expect(forwarded.count()).toBe(1);
    current = counter(10);
    expect(await forwarded.bump(5)).toBe(15);
    expect(forwarded.count()).toBe(15);
  });

  it("a failed lookup throws from a synchronous method and rejects from an asynchronous one", async () => {
    const forwarded = forwardMethods((): Counter => {
      throw new Error("closed");
    }, { count: "sync", bump: "async" });
    expect(() => forwarded.count()).toThrow("closed");
    const bumped = forwarded.bump(1);
    expect(bumped).toBeInstanceOf(Promise);
    await expect(bumped).rejects.toThrow("closed");
  });
});

describe("composeSurfaces", () => {
  it("keeps getters live, plain values read-only and methods callable", () => {
    let warnings = ["first"];
    const core = {
      root: "/project",
      get warnings() {
        return warnings;
      },
    };
    const composed = composeSurfaces(core, { hello: () => "hi" });
    warnings = ["second"];
    expect(composed.warnings).toEqual(["second"]);
    expect(composed.hello()).toBe("hi");
    expect(() => {
      (composed as { root: string }).root = "/elsewhere";
    }).toThrow(TypeError);
    expect(Object.keys(composed).sort()).toEqual(["hello", "root", "warnings"]);
  });

  it("refuses two surfaces offering one name", () => {
    expect(() => composeSurfaces({ close: () => 1 }, { close: () => 2 })).toThrow('Two surfaces offer "close"');
  });
});

describe("the composed Executor", () => {
  it("has every surface's members, and after close() its synchronous methods throw and the others reject", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-compose-"));
    try {
      const executor = await createExecutor({ root, toolsConfig: false, mcpConfig: false, watch: false, logDir: false });
      expect(Object.keys(executor)).toEqual(expect.arrayContaining(["root", "warnings", "callTool", "servers", "reviewTools", "logoutServer", "executeCode", "saveTool", "deleteSavedTool", "searchTools"]));
      expect(executor.servers()).toEqual([]);
      expect(await executor.searchTools("anything")).toEqual([]);
      await expect(executor.listSavedTools()).rejects.toMatchObject({ code: "TOOL_NOT_FOUND", message: expect.stringContaining("Saved tools need code execution") });
      await executor.close();
      for (const call of [() => executor.servers(), () => executor.reviewTools(), () => executor.configStatus()]) {
        expect(call).toThrow(expect.objectContaining({ code: "EXECUTOR_CLOSED" }));
      }
      for (const call of [() => executor.listResources(), () => executor.addServer("x", {}), () => executor.searchTools("x"), () => executor.saveTool({ name: "x", description: "x", inputSchema: {}, code: "1" })]) {
        const answer = call();
        expect(answer).toBeInstanceOf(Promise);
        const error = await answer.then(() => undefined, (reason: unknown) => reason);
        expect(isToolexecError(error) && error.code).toBe("EXECUTOR_CLOSED");
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
