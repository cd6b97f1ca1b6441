/**
 * The Redis driver against a real redis-server: the shared contract, changes between two stores
 * (two replicas), a store that is down (SERVICE_UNAVAILABLE within the timeout, never a hang) and
 * its recovery after Redis restarts, with a resync for subscribers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisStore } from "../../src/core/store/redis-store.js";
import { parseRedisUrl } from "../../src/core/store/redis-url.js";
import type { Store } from "../../src/core/store/store.js";
import { startRedis } from "../helpers/serve-cluster.mjs";
import { describeStoreContract, nextChange } from "./store-contract.js";

let redis: Awaited<ReturnType<typeof startRedis>>;
let database = 0;
beforeAll(async () => {
  redis = await startRedis();
}, 30_000);
afterAll(async () => {
  await redis?.close();
});

/** Each test its own prefix, so tests share the server but no keys. */
const openStore = (prefix = `test-${database++}:`) => createRedisStore(`${redis.url}?prefix=${prefix}`, { timeoutMs: 3000 });

describeStoreContract("redis", () => openStore());

describe("redis store", () => {
  it("tells another store on the same database (another replica) of each write, with the writer's id", async () => {
    const prefix = `shared-${database++}:`;
    const [first, second] = await Promise.all([openStore(prefix), openStore(prefix)]);
    try {
      const heard = nextChange(second, "tools");
      await first.set("tools.json", "{}");
      expect(await heard).toEqual({ key: "tools.json", kind: "set", origin: first.instanceId });
      expect(await second.get("tools.json")).toBe("{}");
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it("answers SERVICE_UNAVAILABLE promptly while Redis is down, then recovers and asks subscribers to resync", async () => {
    const store: Store = await openStore();
    try {
      await store.set("state.json", "1");
      const resync = nextChange(store, ".toolexec/", (change) => change.kind === "resync");
      await redis.stop();
      const started = Date.now();
      await expect(store.get("state.json")).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE", message: expect.stringContaining("is unavailable") });
      await expect(store.set("state.json", "2")).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
      // Bounded by the 3 s timeout (a down client fails at once); never a hang.
      expect(Date.now() - started).toBeLessThan(10_000);
      await redis.start();
      expect(await resync).toMatchObject({ kind: "resync" });
      // Redis lost its data on restart (no persistence); the store works again without reopening.
      await expect.poll(() => store.set("state.json", "3").then(() => true, () => false), { timeout: 15_000 }).toBe(true);
      expect(await store.get("state.json")).toBe("3");
    } finally {
      await store.close();
    }
  }, 60_000);

  it("opens while Redis is unreachable (local work goes on) and answers SERVICE_UNAVAILABLE", async () => {
    const store = await createRedisStore("redis://127.0.0.1:1/0", { timeoutMs: 500 });
    try {
      await expect(store.get("a")).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    } finally {
      await store.close();
    }
  });

  it("checks its URL and keeps passwords out of messages", () => {
    expect(parseRedisUrl("redis://:secret@cache:6379/2?prefix=team-a:")).toEqual({ clientUrl: "redis://:secret@cache:6379/2", prefix: "team-a:", location: "redis://cache:6379/2" });
    expect(() => parseRedisUrl("http://cache")).toThrow(/expected redis:\/\/ or rediss:\/\//);
    expect(() => parseRedisUrl("redis://u:secret@cache/x")).toThrow(expect.objectContaining({ code: "INVALID_OPTIONS", message: expect.not.stringContaining("secret") }));
    expect(() => parseRedisUrl("redis://cache/0?db=1")).toThrow(/unknown parameter "db"/);
  });
});
