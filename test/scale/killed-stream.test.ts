/**
 * A call that asked for progress is answered as an SSE stream, so nginx has sent 200 and the stream's
 * headers before the tool ends; when the replica running it is killed (`kill -9`) nginx can only cut
 * the stream. The client (SDK v1 and v2, protocol 2025-11-25) then resumes with the stream's
 * Last-Event-ID, which nginx sends to the live replica, and that replica answers the call as lost at
 * once: a clear transport error within seconds, not the client's request timeout (60 s). The call
 * ran once (its id is in the runs file once) and is never sent again.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ancestorRunning, startNginx, startReplica, writeClusterProject } from "../helpers/serve-cluster.mjs";

const folder = mkdtempSync(path.join(os.tmpdir(), "toolexec-killed-stream-"));
const runsFile = path.join(folder, "runs.log");
const roots = [0, 1].map((index) => path.join(folder, `replica-${index}`));
let nginx: Awaited<ReturnType<typeof startNginx>>;
let replicas: Array<Awaited<ReturnType<typeof startReplica>>> = [];

beforeAll(async () => {
  for (const root of roots) writeClusterProject(root);
  replicas = await Promise.all(roots.map((root) => startReplica({ root })));
  nginx = await startNginx(replicas.map((replica) => replica.port));
}, 60_000);

afterAll(async () => {
  await nginx?.close();
  await Promise.all(replicas.map((replica) => replica.close()));
  rmSync(folder, { recursive: true, force: true });
});

const runsOf = (id: string) => readFileSync(runsFile, "utf8").split("\n").filter((line) => line === id).length;
const readRuns = () => {
  try {
    return readFileSync(runsFile, "utf8");
  } catch {
    return "";
  }
};

type Call = (id: string, seconds: number) => Promise<unknown>;

const clients: Array<[string, () => Promise<{ call: Call; close(): Promise<void> }>]> = [
  [
    "SDK v1",
    async () => {
      const client = new Client({ name: "killed-stream-v1", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(nginx.url)));
      return { call: (id, seconds) => client.callTool({ name: "count", arguments: { id, file: runsFile, seconds } }, undefined, { onprogress: () => {} }), close: () => client.close() };
    },
  ],
  [
    "SDK v2",
    async () => {
      const client = new ModernClient({ name: "killed-stream-v2", version: "2.0.0" });
      await client.connect(new ModernHttpTransport(new URL(nginx.url)));
      return { call: (id, seconds) => client.callTool({ name: "count", arguments: { id, file: runsFile, seconds } }, { onprogress: () => {} }), close: () => client.close() };
    },
  ],
];

describe("a progress call on a replica killed mid-call, through nginx", () => {
  it.each(clients.map(([name, open], index) => [name, open, index] as const))("ends promptly in a clear transport error for a %s client, and ran once", async (_name, open, index) => {
    const client = await open();
    try {
      const id = `stream-${index}`;
      // A duration no other process runs: `sleep <seconds>` names the replica holding the call.
      const seconds = 40 + index / 10;
      const outcome = client.call(id, seconds).then(
        (result) => ({ ok: true as const, result }),
        (error: Error) => ({ ok: false as const, message: error.message, at: Date.now() }),
      );
      await expect.poll(() => readRuns().split("\n").includes(id), { timeout: 20_000, interval: 20 }).toBe(true);
      let holder: number | undefined;
      await expect.poll(() => (holder = ancestorRunning(replicas.map((replica) => replica.pid), `sleep ${seconds}`)), { timeout: 10_000, interval: 20 }).toBeDefined();
      const killed = replicas.findIndex((replica) => replica.pid === holder);
      await replicas[killed]!.kill();
      const killedAt = Date.now();

      const ended = await outcome;
      expect(ended).toMatchObject({ ok: false, message: expect.stringContaining("stopped before it answered") });
      // The bound is the behaviour: the stream's retry (1 s) and a resume, against the client's 60 s
      // request timeout; 20 s holds when both cores are busy.
      expect((ended as { at: number }).at - killedAt).toBeLessThan(20_000);
      expect(runsOf(id)).toBe(1);

      // The replica comes back on its port, for the next client.
      replicas[killed] = await startReplica({ root: roots[killed]!, port: replicas[killed]!.port });
    } finally {
      await client.close().catch(() => undefined);
    }
  }, 90_000);
});
