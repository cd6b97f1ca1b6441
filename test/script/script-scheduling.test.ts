/**
 * Scheduling of script calls, observed from the scripts themselves: record-turn.sh appends
 * "start <id>" and "end <id>" to turns.log, so overlap and order are read from markers, not timing.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { projectWith, startExecutor, toolEntry, type TempProject } from "./script-test-helpers.js";

function readTurns(project: TempProject): string[] {
  return readFileSync(project.path("turns.log"), "utf8").trim().split("\n");
}

/** The most calls that were between their "start" and "end" markers at once. */
function maxOverlap(turns: string[]): number {
  let running = 0;
  let most = 0;
  for (const turn of turns) {
    running += turn.startsWith("start ") ? 1 : -1;
    most = Math.max(most, running);
  }
  return most;
}

describe("script tools: scheduling", () => {
  it("runs calls of a tool that is not parallel one at a time, in arrival order", async () => {
    const project = projectWith([toolEntry("serial", "shell", "record-turn.sh")], ["record-turn.sh"]);
    const executor = await startExecutor(project);

    const ids = ["a", "b", "c", "d"];
    const results = await Promise.all(ids.map((id) => executor.callTool("serial", { id, seconds: "0.15" })));

    expect(results.map((result) => result.ok && result.value)).toEqual(ids);
    expect(readTurns(project)).toEqual(ids.flatMap((id) => [`start ${id}`, `end ${id}`]));
  });

  it("lets calls of a parallel tool overlap", async () => {
    const project = projectWith([toolEntry("parallel", "shell", "record-turn.sh", { parallel: true })], ["record-turn.sh"]);
    const executor = await startExecutor(project);

    const results = await Promise.all(["a", "b", "c"].map((id) => executor.callTool("parallel", { id, seconds: "0.6" })));

    expect(results.every((result) => result.ok)).toBe(true);
    const turns = readTurns(project);
    expect(turns).toHaveLength(6);
    // Every call started before any ended.
    expect(turns.slice(0, 3).every((turn) => turn.startsWith("start "))).toBe(true);
    expect(maxOverlap(turns)).toBe(3);
  });

  it("takes `parallel` from tools.json defaults", async () => {
    const project = projectWith([toolEntry("parallel", "shell", "record-turn.sh")], ["record-turn.sh"], { parallel: true });
    const executor = await startExecutor(project);

    await Promise.all(["a", "b"].map((id) => executor.callTool("parallel", { id, seconds: "0.6" })));

    expect(maxOverlap(readTurns(project))).toBe(2);
  });

  it("runs calls of different non-parallel tools side by side", async () => {
    const project = projectWith([toolEntry("left", "shell", "record-turn.sh"), toolEntry("right", "shell", "record-turn.sh")], ["record-turn.sh"]);
    const executor = await startExecutor(project);

    await Promise.all([executor.callTool("left", { id: "left", seconds: "0.6" }), executor.callTool("right", { id: "right", seconds: "0.6" })]);

    expect(maxOverlap(readTurns(project))).toBe(2);
  });

  it("never runs more than maxConcurrency calls at once", async () => {
    const project = projectWith([toolEntry("parallel", "shell", "record-turn.sh", { parallel: true })], ["record-turn.sh"]);
    const executor = await startExecutor(project, { maxConcurrency: 2 });

    // Slots free one at a time (a after 0.2 s, c after 0.4 s, b after 0.6 s), so the order in which the
    // waiting calls start is the order they were granted a slot, not a race between two spawns.
    const seconds: Record<string, string> = { a: "0.2", b: "0.6", c: "0.2", d: "0.2", e: "0.2" };
    const results = await Promise.all(Object.keys(seconds).map((id) => executor.callTool("parallel", { id, seconds: seconds[id] })));

    expect(results.every((result) => result.ok)).toBe(true);
    const turns = readTurns(project);
    expect(turns).toHaveLength(10);
    expect(maxOverlap(turns)).toBe(2);
    // Waiting calls get their turn in arrival order.
    expect(turns.filter((turn) => turn.startsWith("start ")).slice(2)).toEqual(["start c", "start d", "start e"]);
  });

  it("answers QUEUE_FULL at once when more calls wait than maxQueue allows", async () => {
    const project = projectWith([toolEntry("serial", "shell", "record-turn.sh")], ["record-turn.sh"]);
    const executor = await startExecutor(project, { maxQueue: 1 });

    const running = executor.callTool("serial", { id: "running", seconds: "0.3" });
    const waiting = executor.callTool("serial", { id: "waiting", seconds: "0.01" });
    const rejected = await executor.callTool("serial", { id: "rejected" });

    expect(rejected.ok).toBe(false);
    if (rejected.ok) return;
    expect(rejected.error.code).toBe("QUEUE_FULL");
    expect(rejected.error.message).toMatchInlineSnapshot(`"Too many calls waiting (limit 1); try again later"`);
    expect(rejected.error.details).toEqual({ maxQueue: 1, maxConcurrency: 8 });
    // At once: answered before the running call ended, not after a turn in the queue.
    expect(existsSync(project.path("turns.log")) ? readTurns(project) : []).not.toContain("end running");
    expect(await running).toMatchObject({ ok: true, value: "running" });
    expect(await waiting).toMatchObject({ ok: true, value: "waiting" });
    expect(readTurns(project)).toEqual(["start running", "end running", "start waiting", "end waiting"]);
  });
});
