// Per-call cost of OAuth: executor.callTool on a tool of an OAuth-protected MCP server against the
// same tool of the same server run without auth, interleaved in one run, one executor.
// The fixtures are real processes on 127.0.0.1 (test/fixtures/oauth/): an authorization server, the
// MCP server it protects (it checks every bearer token by introspection at the authorization server:
// one more HTTP hop per request, on the servers' side), and the same MCP server without an issuer.
// Host CPU per call (this process only) is toolexec's own cost; wall time includes the servers'.
// Also counted: token-store reads during the measured calls (the record is kept in memory).
// Usage: npm run build && node bench/oauth-call.mjs [--runs 400] [--warmup 50] [--block 20]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createExecutor } from "../dist/index.js";
import { createFileTokenStore } from "../dist/mcp.js";
import { startFixture } from "../test/fixtures/oauth/start-fixture.mjs";
import { flag, format, median, quantile } from "./bench-utils.mjs";

const runs = flag("runs", 400);
const warmup = flag("warmup", 50);
const block = flag("block", 20);
const silent = { debug() {}, info() {}, warn: (message) => console.error(message), error: (message) => console.error(message) };

const authorizationServer = await startFixture("authorization-server.mjs");
const mcpServers = await Promise.all([startFixture("protected-mcp-server.mjs", [authorizationServer.url]), startFixture("protected-mcp-server.mjs")]);
const [protectedUrl, openUrl] = mcpServers.map((server) => server.url);
const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-bench-oauth-"));
writeFileSync(path.join(root, "mcp.json"), JSON.stringify({ mcpServers: { secure: { type: "http", url: protectedUrl }, open: { type: "http", url: openUrl, oauth: false } } }));
const files = createFileTokenStore(path.join(root, "config", "toolexec", "oauth"));
let loads = 0;
const store = { ...files, load: (key) => (loads++, files.load(key)) };

let executor;
try {
  // The login a person would do: follow the authorization URL, bring the redirect back.
  executor = await createExecutor({
    root,
    toolsConfig: false,
    watch: false,
    logDir: false,
    logger: silent,
    mcp: { tokenStore: store },
    onAuthorization: async ({ server, url }) => {
      const redirect = new URL((await fetch(url, { redirect: "manual" })).headers.get("location"));
      await executor.finishServerLogin(server, { code: redirect.searchParams.get("code"), state: redirect.searchParams.get("state") });
    },
  });
  const deadline = Date.now() + 10_000;
  while (executor.servers().some((server) => server.state !== "connected")) {
    if (Date.now() > deadline) throw new Error(`not connected: ${JSON.stringify(executor.servers())}`);
    await new Promise((resolve) => {
      const unsubscribe = executor.on("server:connected", () => resolve(unsubscribe()));
    });
  }

  const sides = { open: { tool: "open__whoami", wall: [], cpu: [] }, secure: { tool: "secure__whoami", wall: [], cpu: [] } };
  const call = async (side) => {
    const result = await executor.callTool(side.tool, {});
    if (!result.ok) throw new Error(`${side.tool}: ${result.error.code} ${result.error.message}`);
  };
  for (let index = 0; index < warmup; index++) for (const side of Object.values(sides)) await call(side);
  const loadsBefore = loads;
  // Blocks alternate between the sides, so load from elsewhere falls on both alike.
  for (let done = 0; done < runs; done += block) {
    for (const side of Object.values(sides)) {
      const cpuStart = process.cpuUsage();
      for (let index = 0; index < block; index++) {
        const started = performance.now();
        await call(side);
        side.wall.push(performance.now() - started);
      }
      const cpu = process.cpuUsage(cpuStart);
      side.cpu.push((cpu.user + cpu.system) / 1000 / block);
    }
  }
  const storeReads = loads - loadsBefore;

  const row = (label, side) => `${label.padEnd(28)} wall median ${format(median(side.wall))}  p90 ${format(quantile(side.wall, 0.9))}  host CPU/call median ${format(median(side.cpu))}`;
  console.log(`OAuth call overhead (${runs} calls per side, blocks of ${block}, interleaved; node ${process.version})`);
  console.log(row("without auth (baseline)", sides.open));
  console.log(row("OAuth (bearer, introspected)", sides.secure));
  console.log(`ratio OAuth / baseline: wall ${(median(sides.secure.wall) / median(sides.open.wall)).toFixed(2)}×, host CPU ${(median(sides.secure.cpu) / median(sides.open.cpu)).toFixed(2)}×`);
  console.log(`token-store reads during the ${runs} OAuth calls: ${storeReads}`);
} finally {
  await executor?.close();
  await Promise.all([...mcpServers, authorizationServer].map((server) => server.stop()));
  rmSync(root, { recursive: true, force: true });
}
