/**
 * Each served call's log line says who made it (principal id and kind), through which profile, and
 * whether it was let through; refusals are logged too; the session is an opaque digest. Per-principal
 * limits answer RATE_LIMITED with how long to wait.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createFileStore } from "../../src/core/store/file-store.js";
import { createExecutor } from "../../src/index.js";
import { createApiKey, serveHttp } from "../../src/serve.js";
import { createPrincipalLimits } from "../../src/serve/identity/principal-limits.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { readLogRecords } from "../log/log-test-helpers.js";
import { httpClient, silentLogger } from "../serve/serve-test-helpers.js";

const text = (result: Record<string, unknown>) => (result.content as Array<{ text?: string }>).map((part) => part.text ?? "").join("\n");

describe("audit and limits of a served principal", () => {
  it("logs principal, profile and decision on every call, refusals included, and limits calls per minute", async () => {
    const project = createTempProject();
    project.useFixtures("echo.mjs", "touch-marker.sh");
    project.write("tools.json", {
      tools: [toolEntry("peek", "node", "echo.mjs", { annotations: { readOnlyHint: true } }), toolEntry("wipe", "shell", "touch-marker.sh")],
      profiles: { everyone: {} },
      identity: { limits: { callsPerMinute: 3 } },
    });
    const executor = await createExecutor({ root: project.root, mcpConfig: false, logger: silentLogger, watch: false });
    const store = createFileStore(project.root);
    const serving = await serveHttp(executor, { keys: store });
    const { id, key } = await createApiKey(store, { name: "auditor", tier: "read", profile: "everyone" });
    const client = await httpClient(serving.url, { authorization: `Bearer ${key}` });
    const refused = await client.callTool({ name: "wipe", arguments: {} });
    expect(text(refused)).toMatch(/^FORBIDDEN: /);
    for (let call = 0; call < 3; call++) expect((await client.callTool({ name: "peek", arguments: { call } })).isError).toBeFalsy();
    const limited = await client.callTool({ name: "peek", arguments: { call: 3 } });
    expect(text(limited)).toMatch(/^RATE_LIMITED: Rate limited: 3 calls per minute; retry in \d+ s/);
    await client.close();
    await serving.close();
    await store.close();
    await executor.close();

    const lines = readLogRecords(path.join(project.root, ".toolexec/logs"));
    expect(lines).toHaveLength(5);
    for (const line of lines) {
      expect(line).toMatchObject({ principal: { id, kind: "key" }, profile: "everyone", caller: { name: "serve-test", session: expect.stringMatching(/^[0-9a-f]{16}$/) } });
      expect(JSON.stringify(line)).not.toContain("REDACTED");
    }
    expect(lines.map((line) => [line.tool, line.decision, line.reason])).toEqual([
      ["wipe", "refused", "FORBIDDEN"],
      ["peek", "allowed", undefined],
      ["peek", "allowed", undefined],
      ["peek", "allowed", undefined],
      ["peek", "refused", "RATE_LIMITED"],
    ]);
    expect(new Set(lines.map((line) => (line.caller as { session: string }).session)).size).toBe(1);
  }, 60_000);

  it("counts calls per minute with the previous minute weighed, and calls at once, per principal", async () => {
    const store = createFileStore(createTempProject().root);
    let now = 100 * 60_000;
    const limits = createPrincipalLimits({ callsPerMinute: 2, concurrentCalls: 1 }, { counters: store, warn: () => undefined, now: () => now });
    const first = await limits.admit("alice");
    expect(first.ok).toBe(true);
    expect(await limits.admit("alice")).toMatchObject({ ok: false, retryAfterMs: 1_000, message: expect.stringContaining("1 calls already running") });
    expect((await limits.admit("bob")).ok).toBe(true);
    if (first.ok) first.release();
    now += 10_000;
    const second = await limits.admit("alice");
    expect(second.ok).toBe(true);
    if (second.ok) second.release();
    // Two counted this minute: the next fits once half of the next minute has passed (its 2 then weigh 1).
    expect(await limits.admit("alice")).toMatchObject({ ok: false, retryAfterMs: 80_000 });
    now += 80_000;
    const third = await limits.admit("alice");
    expect(third.ok).toBe(true);
    if (third.ok) third.release();
    expect(await limits.admit("alice")).toMatchObject({ ok: false, retryAfterMs: 30_000 });
    await store.close();
  });

  it("lets calls through uncounted while the store is unreachable, with one warning", async () => {
    const warnings: string[] = [];
    const down = { increment: () => Promise.reject(Object.assign(new Error("The store redis://127.0.0.1:1 is unavailable"), { code: "SERVICE_UNAVAILABLE" })) };
    const limits = createPrincipalLimits({ callsPerMinute: 1 }, { counters: down, warn: (message) => warnings.push(message) });
    for (let call = 0; call < 3; call++) expect((await limits.admit("alice")).ok).toBe(true);
    expect(warnings).toEqual([expect.stringContaining("not counted while the store is unreachable")]);
  });
});
