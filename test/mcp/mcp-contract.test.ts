/** The mcp plugin passes the shared plugin contract, serving server-everything over stdio. */
import { resolveMcpServer, type McpServerEntry } from "../../src/plugins/mcp/config/resolve-mcp-server.js";
import { mcpPlugin } from "../../src/plugins/mcp/mcp-plugin.js";
import type { McpApi } from "../../src/mcp.js";
import { testPluginContract } from "../../src/testing.js";
import { EVERYTHING, REPOSITORY } from "./mcp-test-helpers.js";

let extraServers = 0;

function everythingEntry(): McpServerEntry {
  const resolved = resolveMcpServer("everything", { command: process.execPath, args: [EVERYTHING, "stdio"] }, { root: REPOSITORY, environment: process.env });
  if (!resolved.ok) throw new Error(JSON.stringify(resolved.problems));
  return resolved.server;
}

testPluginContract<McpServerEntry>("mcp", {
  plugin: () => mcpPlugin(),
  entries: () => [everythingEntry()],
  quickCall: { name: "everything__echo", arguments: { message: "hi" } },
  // Its first progress report (step 1 of 60, after a second) says the operation is under way.
  slowCall: { name: "everything__trigger-long-running-operation", arguments: { duration: 60, steps: 60 }, started: ({ progress }) => progress },
  // A server added at run time changes the tool list.
  changeTools: async (instance) => {
    const added = await (instance.api as McpApi).addServer(`extra${++extraServers}`, { command: process.execPath, args: [EVERYTHING, "stdio"] }, { trusted: true });
    if (!added.ok) throw new Error(added.error.message);
  },
});
