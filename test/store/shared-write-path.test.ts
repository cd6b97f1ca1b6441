/**
 * The shared store guards the project's one write queue, not the executor's methods: a write made
 * through a door that is no executor method — code mode's `save_tool` built-in, called by a model
 * or a client — is refused with SERVICE_UNAVAILABLE while Redis is down (nothing written, no hang)
 * and, once Redis is back, reaches the other replica like any other write.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { silentLogger, writeCodeProject, type CodeProject } from "../code/code-test-helpers.js";
import { startRedis } from "../helpers/serve-cluster.mjs";

const DOUBLE = { name: "double", description: "Twice a number", inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] }, code: "input.n * 2" };

let redis: Awaited<ReturnType<typeof startRedis>>;
const projects: CodeProject[] = [];
beforeAll(async () => {
  redis = await startRedis();
}, 30_000);
afterAll(async () => {
  await redis?.close();
  for (const project of projects) project.remove();
});

async function replica(url: string): Promise<Executor> {
  const project = writeCodeProject({ codeExecution: { enabled: true, poolSize: 1 } });
  projects.push(project);
  return createExecutor({ root: project.root, store: url, logger: silentLogger, logDir: false });
}

describe("the project's write queue, guarded by a shared store", () => {
  it("refuses code mode's save_tool while Redis is down, then shares it once Redis is back", async () => {
    const url = `${redis.url}?prefix=write-path:`;
    const [first, second] = await Promise.all([replica(url), replica(url)]);
    const savedFile = path.join(first.root, ".toolexec", "saved-tools", "double.js");
    try {
      await redis.stop();
      const started = Date.now();
      const refused = await first.callTool("save_tool", DOUBLE);
      expect(refused).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE" } });
      // Never a hang: the store's own bound (2 s), with room for busy cores.
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(existsSync(savedFile)).toBe(false);
      expect(await first.callTool("echo", { n: 1 })).toMatchObject({ ok: true });

      await redis.start();
      await expect.poll(async () => ((await first.callTool("save_tool", DOUBLE)) as { ok: boolean }).ok, { timeout: 20_000, interval: 200 }).toBe(true);
      await expect.poll(async () => (await second.listSavedTools()).map((tool) => tool.name), { timeout: 10_000, interval: 50 }).toContain("double");
      expect(await second.callTool("double", { n: 21 })).toMatchObject({ ok: true, value: 42 });
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  }, 90_000);
});
