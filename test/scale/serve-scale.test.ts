/**
 * Three `toolexec serve --http --stateless --store redis://…` replicas behind a real nginx (round
 * robin), each on its own copy of the project, sharing a real redis-server: served calls work
 * through the balancer; a registry write through one replica is listed through another; Redis
 * restarted mid-run is recovered from without restarting anything; `kill -9` of a replica under load
 * fails only the calls it held (a clear transport error), every call sent after it succeeds, and no
 * call runs twice (each run appends its id to a file).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startNginx, startRedis, startReplica, writeClusterProject } from "../helpers/serve-cluster.mjs";

const API_KEY = "scale-test-key-0123456789abcdef0123";
const folder = mkdtempSync(path.join(os.tmpdir(), "toolexec-scale-"));
const runsFile = path.join(folder, "runs.log");
let redis: Awaited<ReturnType<typeof startRedis>>;
let nginx: Awaited<ReturnType<typeof startNginx>>;
const replicas: Array<Awaited<ReturnType<typeof startReplica>>> = [];
const clients: Client[] = [];

beforeAll(async () => {
  redis = await startRedis();
  for (const index of [0, 1, 2]) {
    const root = path.join(folder, `replica-${index}`);
    writeClusterProject(root);
    // One after another: the first seeds the store, the others take its files.
    replicas.push(await startReplica({ root, store: redis.url, apiKey: API_KEY }));
  }
  nginx = await startNginx(replicas.map((replica) => replica.port));
}, 90_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await nginx?.close();
  await Promise.all(replicas.map((replica) => replica.close()));
  await redis?.close();
  rmSync(folder, { recursive: true, force: true });
});

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: "scale-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
}

async function registryWrite(replica: { url: string }, entry: object, script: string): Promise<Response> {
  return fetch(replica.url.replace(/\/mcp$/, "/api/tools"), { method: "POST", headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" }, body: JSON.stringify({ entry, script }) });
}

const toolNamed = (name: string) => ({ name, description: `Added at run time: ${name}`, runtime: "shell", script: `${name}.sh`, inputSchema: { type: "object" } });
const namesThrough = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);

describe("replicas behind nginx sharing Redis", () => {
  it("serves calls round robin through nginx: an MCP tool (each replica's own upstream) and a local tool", async () => {
    const client = await connect(nginx.url);
    const pids = new Set<number>();
    for (let call = 0; call < 6; call++) {
      const result = await client.callTool({ name: "fixture__read_slow", arguments: { delayMs: 50 } });
      pids.add(JSON.parse((result.content as Array<{ text: string }>)[0]!.text).pid);
    }
    // Each replica runs its own fixture server: more than one pid means more than one replica answered.
    expect(pids.size).toBeGreaterThan(1);
    expect((await client.callTool({ name: "count", arguments: { id: "first", file: runsFile } })).structuredContent).toEqual({ id: "first" });
  }, 60_000);

  it("lists a registry write made through replica 1 through replica 2 within a second", async () => {
    const second = await connect(replicas[1]!.url);
    const written = Date.now();
    const response = await registryWrite(replicas[0]!, toolNamed("greet"), "echo '{\"hello\": \"world\"}'\n");
    expect(response.status).toBe(201);
    await expect.poll(() => namesThrough(second), { timeout: 10_000, interval: 20 }).toContain("greet");
    const elapsed = Date.now() - written;
    // The bound is the behaviour (≤ 1 s); 3 s holds when both cores are busy. Measured quiet: ~0.3 s.
    expect(elapsed).toBeLessThan(3000);
    expect((await second.callTool({ name: "greet", arguments: {} })).structuredContent).toEqual({ hello: "world" });
  }, 60_000);

  it("tells a 2026-07-28 client listening on replica 3 (subscriptions/listen) of a registry write made through replica 1", async () => {
    const modern = new ModernClient({ name: "scale-modern", version: "2.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await modern.connect(new ModernHttpTransport(new URL(replicas[2]!.url)));
    try {
      const changed = vi.fn();
      modern.setNotificationHandler("notifications/tools/list_changed", changed);
      const subscription = await modern.listen({ toolsListChanged: true });
      expect((await registryWrite(replicas[0]!, toolNamed("wave"), "echo '{}'\n")).status).toBe(201);
      await vi.waitFor(() => expect(changed).toHaveBeenCalled(), { timeout: 15_000, interval: 50 });
      expect((await modern.listTools()).tools.map((tool) => tool.name)).toContain("wave");
      await subscription.close();
    } finally {
      await modern.close();
    }
  }, 60_000);

  it("keeps serving while Redis restarts, refuses registry writes meanwhile (503), and shares writes again once it is back", async () => {
    const client = await connect(nginx.url);
    await redis.stop();
    const refused = await registryWrite(replicas[1]!, toolNamed("during_outage"), "echo '{}'\n");
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: { code: "SERVICE_UNAVAILABLE" } });
    expect((await client.callTool({ name: "count", arguments: { id: "outage", file: runsFile } })).structuredContent).toEqual({ id: "outage" });
    await redis.start();
    // No replica restarts: each reconnects, seeds the empty Redis again, and writes flow again.
    await expect.poll(async () => (await registryWrite(replicas[1]!, toolNamed("after_outage"), "echo '{}'\n")).status, { timeout: 20_000, interval: 200 }).toBe(201);
    const third = await connect(replicas[2]!.url);
    await expect.poll(() => namesThrough(third), { timeout: 10_000, interval: 50 }).toEqual(expect.arrayContaining(["greet", "after_outage"]));
  }, 60_000);

  it("survives kill -9 of a replica under load: later calls succeed, its in-flight calls fail clearly, nothing runs twice", async () => {
    const workers = await Promise.all(Array.from({ length: 9 }, () => connect(nginx.url)));
    const outcomes: Array<{ id: string; sentAt: number; ok: boolean; message?: string }> = [];
    let killedAt = Number.POSITIVE_INFINITY;
    let stopAt = Number.POSITIVE_INFINITY;
    let sequence = 0;
    const work = async (client: Client, worker: number) => {
      while (Date.now() < stopAt) {
        const id = `w${worker}-${sequence++}`;
        const sentAt = Date.now();
        try {
          const result = await client.callTool({ name: "count", arguments: { id, file: runsFile, seconds: 0.3 } });
          outcomes.push({ id, sentAt, ok: result.isError !== true, ...(result.isError ? { message: JSON.stringify(result.content) } : {}) });
        } catch (error) {
          outcomes.push({ id, sentAt, ok: false, message: (error as Error).message });
        }
      }
    };
    const running = workers.map(work);
    // Under load first: a few calls done on every replica.
    await expect.poll(() => outcomes.filter((outcome) => outcome.ok).length, { timeout: 20_000, interval: 20 }).toBeGreaterThan(9);
    await replicas[2]!.kill();
    killedAt = Date.now();
    const okBefore = outcomes.filter((outcome) => outcome.ok).length;
    await expect.poll(() => outcomes.filter((outcome) => outcome.ok).length, { timeout: 20_000, interval: 20 }).toBeGreaterThan(okBefore + 18);
    stopAt = Date.now();
    await Promise.all(running);

    const failed = outcomes.filter((outcome) => !outcome.ok);
    expect(outcomes.filter((outcome) => outcome.sentAt > killedAt && !outcome.ok)).toEqual([]);
    // The killed replica held calls: each ends in the balancer's 502, a transport error, never a hang.
    expect(failed.length).toBeGreaterThan(0);
    for (const outcome of failed) expect(outcome.message).toMatch(/HTTP 502|Bad Gateway/);
    const runs = readFileSync(runsFile, "utf8").trim().split("\n");
    const counts = new Map<string, number>();
    for (const id of runs) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect([...counts].filter(([, count]) => count > 1)).toEqual([]);
    for (const outcome of outcomes.filter((each) => each.ok)) expect(counts.get(outcome.id)).toBe(1);
  }, 90_000);
});
