/**
 * mcp.json's project-wide lifecycle keys: `serverDefaults` under every entry (an entry's own key wins,
 * `retry` key by key, stdio-only keys for stdio servers only), `maxConcurrentStarts`, and the
 * per-entry `start`, `idleTimeoutMs`, `installTimeoutMs`, each checked with a located message. The
 * file stays one other clients read: the new keys sit beside `mcpServers`.
 */
import { describe, expect, it } from "vitest";
import { loadProjectConfig } from "../../src/config.js";
import { configErrorText } from "../config/config-test-helpers.js";
import { createTempProject } from "../helpers/temp-project.js";

const load = async (mcp: object) => (await loadProjectConfig({ root: createTempProject({ tools: { tools: [] }, mcp }).root })).sections.mcp;
const failure = (mcp: object) => configErrorText(createTempProject({ tools: { tools: [] }, mcp }));

describe("serverDefaults and maxConcurrentStarts", () => {
  it("apply to every entry that does not set the key; the entry wins, retry key by key; stdio-only keys skip http servers", async () => {
    const servers = await load({
      serverDefaults: { start: "lazy", idleTimeoutMs: 60_000, installTimeoutMs: 300_000, timeoutMs: 9_000, retry: { retries: 5, maxDelayMs: 2_000 }, maxConcurrency: 2, maxResponseBytes: 1_000 },
      maxConcurrentStarts: 2,
      mcpServers: {
        plain: { command: "node", args: ["server.js"] },
        own: { command: "npx", args: ["-y", "pkg"], start: "eager", idleTimeoutMs: 1_000, timeoutMs: 1_000, retry: { retries: 0 } },
        remote: { url: "https://example.com/mcp" },
      },
    });
    expect(servers[0]).toMatchObject({ name: "plain", start: "lazy", idleTimeoutMs: 60_000, installTimeoutMs: 300_000, timeoutMs: 9_000, retry: { retries: 5, minDelayMs: 250, maxDelayMs: 2_000 }, maxConcurrency: 2, maxResponseBytes: 1_000, maxConcurrentStarts: 2 });
    expect(servers[0]).not.toHaveProperty("packageRunner");
    expect(servers[1]).toMatchObject({ name: "own", start: "eager", idleTimeoutMs: 1_000, packageRunner: "npx", timeoutMs: 1_000, retry: { retries: 0, maxDelayMs: 2_000 } });
    expect(servers[2]).toMatchObject({ name: "remote", timeoutMs: 9_000, maxConcurrency: 2 });
    for (const key of ["start", "idleTimeoutMs", "installTimeoutMs", "maxConcurrentStarts"]) expect(servers[2]).not.toHaveProperty(key);
  });

  it("without them: no start (the executor's mcp.start decides), no idle stop, no cap of the file's own", async () => {
    const [server] = await load({ mcpServers: { plain: { command: "node" } } });
    for (const key of ["start", "idleTimeoutMs", "installTimeoutMs", "maxConcurrentStarts"]) expect(server).not.toHaveProperty(key);
  });

  it("reports wrong values and unknown keys where they are", async () => {
    expect(await failure({ mcpServers: { a: { command: "node", idleTimeoutMs: -1 }, b: { url: "https://example.com/mcp", start: "lazy" } } })).toMatchInlineSnapshot(`
      "2 problems in mcp.json:
        mcp.json:5:24 mcpServers.a.idleTimeoutMs: Expected a number greater than 0, got -1
        mcp.json:9:7 mcpServers.b.start: "start" is for stdio servers; this is an http server (it has "url")"
    `);
    expect(await failure({ serverDefaults: { start: "sometimes", command: "x" }, maxConcurrentStarts: 0, mcpServers: {} })).toMatchInlineSnapshot(`
      "3 problems in mcp.json:
        mcp.json:3:14 serverDefaults.start: Expected one of "eager", "lazy", got "sometimes"
        mcp.json:4:5 serverDefaults.command: Unknown key "command"; expected one of: start, idleTimeoutMs, installTimeoutMs, timeoutMs, retry, maxConcurrency, maxResponseBytes, results
        mcp.json:6:26 maxConcurrentStarts: Expected a number greater than 0, got 0"
    `);
  });
});
