/**
 * `toolexec serve` is long-running: its young generation stays at the limit set as it starts
 * (src/cli/serve-young-generation.ts) through the start-up and code calls, where V8 left alone grows
 * it to 16–32 MiB.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { expect, it, vi } from "vitest";
import { SERVE_YOUNG_GENERATION_BYTES } from "../../src/cli/serve-young-generation.js";
import { createTempProject } from "../helpers/temp-project.js";
import { TOOLEXEC_BIN } from "../helpers/toolexec-bin.mjs";

const REPOSITORY = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const REPORTER = path.join(REPOSITORY, "test", "fixtures", "report-young-generation.mjs");

it("keeps serve's young generation at its limit through start-up and code calls", async () => {
  const project = createTempProject({ tools: { tools: [], codeExecution: { enabled: true, poolSize: 1 } } });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", REPORTER, TOOLEXEC_BIN, "serve", "--root", project.root],
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "young-generation", version: "1.0.0" });
  await client.connect(transport);
  try {
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("code_execution");
    for (let run = 0; run < 20; run++) {
      const result = await client.callTool({ name: "code_execution", arguments: { code: `return Array.from({ length: 2000 }, (_, i) => ({ i, text: "row " + i }))` } });
      expect(result.isError).toBeFalsy();
    }
    process.kill(transport.pid!, "SIGUSR2");
    await vi.waitFor(() => expect(stderr).toMatch(/young-generation \d+/), { timeout: 10_000, interval: 20 });
    const bytes = Number(/young-generation (\d+)/.exec(stderr)![1]);
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(SERVE_YOUNG_GENERATION_BYTES);
  } finally {
    await client.close();
  }
}, 60_000);
