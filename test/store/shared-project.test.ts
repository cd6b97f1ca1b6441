/**
 * Two executors on two copies of a project (two replicas) sharing one real Redis: a registry write,
 * a saved tool and an OAuth token made through one are seen through the other, the second hears a
 * tools:changed; a write while Redis is down is SERVICE_UNAVAILABLE before anything is written, and
 * local tools keep working. The files store (the default) leaves today's behaviour as it was.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { createStoreTokenStore } from "../../src/plugins/mcp/auth/store-token-store.js";
import { startRedis } from "../helpers/serve-cluster.mjs";
import { createTempProject } from "../helpers/temp-project.js";

const STORE_KEY = { TOOLEXEC_STORE_KEY: "0123456789abcdef0123456789abcdef" };
let redis: Awaited<ReturnType<typeof startRedis>>;
let prefixes = 0;
beforeAll(async () => {
  redis = await startRedis();
}, 30_000);
afterAll(async () => {
  await redis?.close();
});

function replicaProject() {
  const project = createTempProject();
  project.write("tools.json", { tools: [] });
  return project;
}

const greet = { name: "greet", description: "Say hello", runtime: "shell", script: "greet.sh", inputSchema: { type: "object" } };

describe("executors sharing a Redis store", () => {
  it("shows a registry write made through one replica on the other within a second, as a tools:changed", async () => {
    const url = `${redis.url}?prefix=shared-${prefixes++}:`;
    const first = await createExecutor({ root: replicaProject().root, store: url, mcpConfig: false });
    const second = await createExecutor({ root: replicaProject().root, store: url, mcpConfig: false });
    try {
      expect(first.store.driver).toBe("redis");
      const changed = new Promise<string[]>((resolve) => second.on("tools:changed", ({ added }) => added.includes("greet") && resolve(added)));
      const written = Date.now();
      await first.registerTool(greet, { script: "echo '{\"hello\": \"world\"}'\n" });
      await changed;
      // The bound is the behaviour (≤ 1 s); 3 s holds when both cores are busy.
      expect(Date.now() - written).toBeLessThan(3000);
      expect((await second.listTools()).map((tool) => tool.name)).toContain("greet");
      expect(await second.callTool("greet", {})).toMatchObject({ ok: true, value: { hello: "world" } });
      expect(readFileSync(`${second.root}/tools.json`, "utf8")).toContain('"greet"');
      await first.removeTool("greet");
      await expect.poll(async () => (await second.listTools()).map((tool) => tool.name), { timeout: 5000 }).not.toContain("greet");
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  }, 30_000);

  it("refuses a registry write with SERVICE_UNAVAILABLE while Redis is down, leaves the file alone, and keeps local tools working", async () => {
    const url = `${redis.url}?prefix=down-${prefixes++}:`;
    const project = replicaProject();
    project.write("tools/hello.sh", "echo '{\"ok\": 1}'\n");
    project.write("tools.json", { tools: [{ ...greet, name: "hello", script: "hello.sh" }] });
    const executor: Executor = await createExecutor({ root: project.root, store: url, mcpConfig: false });
    try {
      await redis.stop();
      const before = readFileSync(project.path("tools.json"), "utf8");
      await expect(executor.registerTool(greet, { script: "echo '{}'\n" })).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
      expect(readFileSync(project.path("tools.json"), "utf8")).toBe(before);
      expect(await executor.callTool("hello", {})).toMatchObject({ ok: true, value: { ok: 1 } });
      await redis.start();
      // Recovery without a restart: the store is back and the replica seeds it again on the resync.
      await expect.poll(() => executor.registerTool(greet, { script: "echo '{}'\n" }).then(() => "ok", (error: { code?: string }) => error.code), { timeout: 15_000 }).toBe("ok");
    } finally {
      await executor.close();
    }
  }, 60_000);

  it("seeds a Redis restarted without its data again from its files, with no write to trigger it", async () => {
    const url = `${redis.url}?prefix=reseed-${prefixes++}:`;
    const project = replicaProject();
    project.write("tools/hello.sh", "echo '{\"ok\": 1}'\n");
    project.write("tools.json", { tools: [{ ...greet, name: "hello", script: "hello.sh" }] });
    const executor = await createExecutor({ root: project.root, store: url, mcpConfig: false });
    try {
      await redis.restart();
      await expect.poll(() => executor.store.get("tools.json").catch(() => undefined), { timeout: 20_000, interval: 100 }).toContain('"hello"');
      expect(await executor.store.get("tools/hello.sh")).toContain("ok");
      expect(readFileSync(project.path("tools.json"), "utf8")).toContain('"hello"');
    } finally {
      await executor.close();
    }
  }, 60_000);

  it("keeps OAuth tokens sealed in the store, readable by another replica with the same key", async () => {
    const url = `${redis.url}?prefix=oauth-${prefixes++}:`;
    const executor = await createExecutor({ root: replicaProject().root, store: url, mcpConfig: false });
    try {
      const tokens = createStoreTokenStore(executor.store, STORE_KEY);
      await tokens.save("server-a", { serverUrl: "https://mcp.example", tokens: { access_token: "secret-token", token_type: "bearer" } });
      const [key] = await executor.store.list(".toolexec/oauth/");
      expect(await executor.store.get(key!)).not.toContain("secret-token");
      expect(await createStoreTokenStore(executor.store, STORE_KEY).load("server-a")).toMatchObject({ tokens: { access_token: "secret-token" } });
      await expect(createStoreTokenStore(executor.store, {}).load("server-a")).rejects.toMatchObject({ code: "CONFIG_MISSING" });
    } finally {
      await executor.close();
    }
  }, 30_000);

  it("refuses a store option that is neither files, a redis URL nor a Store, naming what it expects", async () => {
    const root = replicaProject().root;
    await expect(createExecutor({ root, store: "postgres://db/0", mcpConfig: false })).rejects.toMatchObject({ code: "INVALID_OPTIONS", message: expect.stringContaining('expected "files" or a redis://host:port/db URL') });
    await expect(createExecutor({ root, store: 42 as unknown as string, mcpConfig: false })).rejects.toMatchObject({ code: "INVALID_OPTIONS", message: expect.stringContaining("store") });
  });

  it("uses the project's files by default (today's layout)", async () => {
    const executor = await createExecutor({ root: replicaProject().root, mcpConfig: false });
    try {
      expect(executor.store.driver).toBe("files");
      expect(await executor.store.get("tools.json")).toBe(readFileSync(`${executor.root}/tools.json`, "utf8"));
    } finally {
      await executor.close();
    }
  });
});
