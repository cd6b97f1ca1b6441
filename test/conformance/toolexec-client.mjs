/**
 * The client under test for `@modelcontextprotocol/conformance client`: toolexec's executor, from
 * the built `dist/`, pointed at the scenario's server (the last argument) through an mcp.json entry
 * as a user would write it. It lists the server's tools, calls each one, and closes.
 *
 * Usage (the conformance CLI appends the URL): node test/conformance/toolexec-client.mjs <server-url>
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createExecutor } from "../../dist/index.js";

/** Arguments for the tools the scenarios serve; any other tool is called with `{}`. */
const ARGUMENTS = { add_numbers: { a: 5, b: 3 } };

const url = process.argv.at(-1);
if (!url || !/^https?:\/\//.test(url)) {
  console.error(`Expected the server URL as the last argument, got ${JSON.stringify(url)}`);
  process.exit(2);
}

const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-conformance-"));
writeFileSync(path.join(root, "mcp.json"), JSON.stringify({ mcpServers: { test: { type: "http", url } } }));
let failed = false;
const executor = await createExecutor({
  root,
  toolsConfig: false,
  watch: false,
  logDir: false,
  // Accept with no fields of its own: the server's schema defaults fill the form (SEP-1034).
  onElicitation: async () => ({ action: "accept", content: {} }),
});
try {
  const [server] = executor.servers();
  console.log(`server: ${JSON.stringify(server)}`);
  if (server?.state !== "connected") failed = true;
  for (const tool of await executor.listTools()) {
    const result = await executor.callTool(tool.name, ARGUMENTS[tool.name.replace(/^test__/, "")] ?? {});
    console.log(`${tool.name}: ${JSON.stringify(result.ok ? { ok: true, value: result.value } : { ok: false, error: result.error })}`);
    if (!result.ok) failed = true;
  }
} finally {
  await executor.close();
  rmSync(root, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
