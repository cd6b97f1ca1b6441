/**
 * A package runner's first start (`npx -y …` downloading the server) gets its own budget and is
 * reported as `installing`; the CLI waits it out instead of killing the download after its start-up
 * wait. The runner is a real fake: a script named `npx`, first on PATH, that "downloads" until the
 * test creates a signal file, then runs the stdio fixture server.
 */
import { writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { createExecutor, type ExecutorEvents } from "../../src/index.js";
import { runCli } from "../../src/cli/main.js";
import { DEFAULT_MCP_STARTUP_TIMEOUT_MS } from "../../src/plugins/mcp/mcp-plugin.js";
import { projectWithFakeNpx } from "../helpers/fake-npx.js";
import { eventually, silentLogger, track } from "./mcp-test-helpers.js";

describe("a package runner's first start", () => {
  it("is `installing` (with an event naming its budget) until the server is up, then connects", async () => {
    const { project, signal } = projectWithFakeNpx();
    const installing: ExecutorEvents["server:installing"][] = [];
    const executor = track(await createExecutor({ root: project.root, logDir: false, watch: false, logger: silentLogger, mcp: { startupTimeoutMs: 100 } }));
    executor.on("server:installing", (payload) => installing.push(payload));
    await new Promise((resolve) => setImmediate(resolve));
    expect(executor.servers()[0]).toMatchObject({ name: "fetcher", state: "installing" });
    expect(installing).toEqual([{ server: "fetcher", command: "npx", budgetMs: 120_000 }]);
    writeFileSync(signal, "");
    await eventually(() => executor.servers()[0]?.state === "connected", 10_000, "the server connected after its download");
    expect(await executor.callTool("fetcher__echo", { text: "ok" })).toMatchObject({ ok: true, value: "ok" });
  });

  it("ends at the entry's own installTimeoutMs, not at the usual connection budget", async () => {
    const { project } = projectWithFakeNpx({ installTimeoutMs: 300 });
    const executor = track(await createExecutor({ root: project.root, logDir: false, watch: false, logger: silentLogger, mcp: { startupTimeoutMs: 100 } }));
    // Well within the 30 s budget of an ordinary connection attempt.
    await eventually(() => executor.servers()[0]?.state !== "installing", 10_000, "the first start ended");
    expect(executor.servers()[0]).toMatchObject({ state: "retrying", lastError: { code: "SERVICE_UNAVAILABLE" } });
  });

  it("CLI: `toolexec servers` waits out the download past its start-up wait, and shows the server connected", async () => {
    const { project, signal } = projectWithFakeNpx();
    const output = { out: [] as string[], err: [] as string[] };
    const running = runCli(["servers", "--root", project.root], { out: (text) => output.out.push(text), err: (text) => output.err.push(text) });
    await eventually(() => output.err.some((line) => line.includes("first time")), 10_000, "the CLI's note about the first start");
    expect(output.err.join("\n")).toContain('note: MCP server "fetcher" starts for the first time through npx, which may download it first: allowing up to 120 s');
    // The download outlasts the start-up wait, which used to end the command (and kill the download).
    await sleep(DEFAULT_MCP_STARTUP_TIMEOUT_MS + 500);
    writeFileSync(signal, "");
    expect(await running).toBe(0);
    expect(output.out.join("\n")).toMatch(/^fetcher {2}connected {4}stdio {2}16 tools/);
  }, 30_000);
});
