/**
 * Servers added at run time with a shared Redis store: a server added through one replica is listed
 * and callable through another within a second, each replica running its own connection (its own
 * stdio process); removal likewise; the entry (its env) is sealed in Redis; a replica started later
 * runs the stored servers, and so do replicas after Redis restarted without its data (they write back
 * what they run); a 2026-07-28 client listening on another replica hears of the new tools; while Redis
 * is down `addServer` answers SERVICE_UNAVAILABLE and adds nothing; without TOOLEXEC_STORE_KEY it
 * answers CONFIG_MISSING.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from "@modelcontextprotocol/client";
import { createExecutor, type Executor } from "../../src/index.js";
import { serveHttp } from "../../src/serve.js";
import { createRedisStore } from "../../src/core/store/redis-store.js";
import { startRedis, FIXTURE_MCP_SERVER } from "../helpers/serve-cluster.mjs";
import { createTempProject } from "../helpers/temp-project.js";

let redis: Awaited<ReturnType<typeof startRedis>>;
let prefixes = 0;
beforeAll(async () => {
  redis = await startRedis();
}, 30_000);
beforeEach(() => {
  vi.stubEnv("TOOLEXEC_STORE_KEY", "0123456789abcdef0123456789abcdef");
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await redis?.close();
});

/** A key prefix of its own per test: the tests share one redis-server. */
const nextUrl = () => `${redis.url}?prefix=servers-${prefixes++}:`;

function replica(url: string): Promise<Executor> {
  const project = createTempProject();
  project.write("tools.json", { tools: [] });
  return createExecutor({ root: project.root, store: url, mcpConfig: false });
}

/** A trusted stdio server whose env names the file it logs its start to (a stand-in for a secret). */
function fixtureServer(log: string) {
  return { command: process.execPath, args: [FIXTURE_MCP_SERVER], env: { FIXTURE_LOG: log } };
}

/** Add the fixture server through `executor`, logging its starts beside its project. */
const addFixture = (executor: Executor) => executor.addServer("fixture", fixtureServer(path.join(executor.root, "start.log")), { trusted: true });

const serverTools = async (executor: Executor) => (await executor.listTools()).map((tool) => tool.name).filter((name) => name.startsWith("fixture__"));
const startedPids = (log: string) =>
  existsSync(log)
    ? readFileSync(log, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { event: string; pid: number })
        .filter((line) => line.event === "started")
        .map((line) => line.pid)
    : [];

describe("servers added at run time, shared through Redis", () => {
  it("lists and calls a server added through one replica on another within a second, each with its own process; removal likewise; sealed in Redis", async () => {
    const url = nextUrl();
    const [first, second] = await Promise.all([replica(url), replica(url)]);
    const log = path.join(first.root, "fixture-secret-start.log");
    try {
      const added = Date.now();
      expect(await first.addServer("fixture", fixtureServer(log), { trusted: true })).toMatchObject({ ok: true, server: { state: "connected" } });
      await expect.poll(() => serverTools(second), { timeout: 10_000, interval: 20 }).toContain("fixture__echo");
      // The bound is the behaviour (≤ 1 s, a stdio server's start included); 3 s holds when both cores are busy.
      expect(Date.now() - added).toBeLessThan(3000);
      expect(await second.callTool("fixture__echo", { text: "through the second" })).toMatchObject({ ok: true });
      expect(second.servers().find((server) => server.name === "fixture")).toMatchObject({ source: "runtime", state: "connected" });
      // Each replica started its own process, with the env the host gave (opened from the sealed record).
      expect(new Set(startedPids(log)).size).toBe(2);

      const raw = await createRedisStore(url);
      try {
        const record = await raw.get(".toolexec/servers/fixture");
        expect(record).toBeDefined();
        expect(record).not.toContain("fixture-secret-start.log");
        expect(record).not.toContain(FIXTURE_MCP_SERVER);
      } finally {
        await raw.close();
      }

      const removed = Date.now();
      expect(await second.removeServer("fixture")).toBe(true);
      await expect.poll(() => serverTools(first), { timeout: 10_000, interval: 20 }).toEqual([]);
      expect(Date.now() - removed).toBeLessThan(3000);
      expect(first.servers().map((server) => server.name)).not.toContain("fixture");
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  }, 60_000);

  it("runs the stored servers in a replica started later", async () => {
    const url = nextUrl();
    const first = await replica(url);
    let later: Executor | undefined;
    try {
      expect(await addFixture(first)).toMatchObject({ ok: true });
      later = await replica(url);
      expect(await serverTools(later)).toContain("fixture__echo");
    } finally {
      await Promise.all([first.close(), later?.close()]);
    }
  }, 60_000);

  it("tells a 2026-07-28 client listening (subscriptions/listen) on another replica of a server added through the first", async () => {
    const url = nextUrl();
    const [first, second] = await Promise.all([replica(url), replica(url)]);
    const serving = await serveHttp(second, { port: 0, stateless: true });
    const modern = new ModernClient({ name: "listener", version: "2.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    try {
      await modern.connect(new ModernHttpTransport(new URL(serving.url)));
      const changed = vi.fn();
      modern.setNotificationHandler("notifications/tools/list_changed", changed);
      const subscription = await modern.listen({ toolsListChanged: true });
      expect(await addFixture(first)).toMatchObject({ ok: true });
      await vi.waitFor(() => expect(changed).toHaveBeenCalled(), { timeout: 15_000, interval: 50 });
      expect((await modern.listTools()).tools.map((tool) => tool.name)).toContain("fixture__echo");
      await subscription.close();
    } finally {
      await modern.close();
      await serving.close();
      await Promise.all([first.close(), second.close()]);
    }
  }, 60_000);

  it("writes its servers back to a Redis restarted without its data, for replicas started afterwards", async () => {
    const url = nextUrl();
    const first = await replica(url);
    let later: Executor | undefined;
    try {
      expect(await addFixture(first)).toMatchObject({ ok: true });
      await redis.restart();
      const raw = await createRedisStore(url);
      try {
        await expect.poll(() => raw.list(".toolexec/servers/").catch(() => []), { timeout: 20_000, interval: 100 }).toEqual([".toolexec/servers/fixture"]);
      } finally {
        await raw.close();
      }
      later = await replica(url);
      expect(await serverTools(later)).toContain("fixture__echo");
      expect(await serverTools(first)).toContain("fixture__echo");
    } finally {
      await Promise.all([first.close(), later?.close()]);
    }
  }, 60_000);

  it("leaves a stored server out, with a warning naming why, on a replica without TOOLEXEC_STORE_KEY", async () => {
    const url = nextUrl();
    const first = await replica(url);
    let keyless: Executor | undefined;
    try {
      expect(await addFixture(first)).toMatchObject({ ok: true });
      vi.stubEnv("TOOLEXEC_STORE_KEY", "");
      const warnings: string[] = [];
      const project = createTempProject();
      project.write("tools.json", { tools: [] });
      const logger = { debug() {}, info() {}, error() {}, warn: (message: string) => void warnings.push(message) };
      keyless = await createExecutor({ root: project.root, store: url, mcpConfig: false, logger });
      expect(await serverTools(keyless)).toEqual([]);
      expect(warnings).toContainEqual(expect.stringMatching(/^The server "fixture" another replica added cannot run here: TOOLEXEC_STORE_KEY is not set/));
    } finally {
      await Promise.all([first.close(), keyless?.close()]);
    }
  }, 60_000);

  it("answers SERVICE_UNAVAILABLE while Redis is down and adds nothing; CONFIG_MISSING without TOOLEXEC_STORE_KEY", async () => {
    const url = nextUrl();
    const executor = await replica(url);
    try {
      await redis.stop();
      const refused = await addFixture(executor);
      expect(refused).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE" } });
      expect(executor.servers()).toEqual([]);
      await redis.start();
    } finally {
      await executor.close();
    }
    vi.stubEnv("TOOLEXEC_STORE_KEY", "");
    const keyless = await replica(nextUrl());
    try {
      const refused = await addFixture(keyless);
      expect(refused).toMatchObject({ ok: false, error: { code: "CONFIG_MISSING", message: expect.stringContaining("TOOLEXEC_STORE_KEY") } });
      expect(keyless.servers()).toEqual([]);
    } finally {
      await keyless.close();
    }
  }, 60_000);
});
