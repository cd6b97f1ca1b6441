/** The mcp plugin passes the shared plugin contract, serving server-everything over stdio. */
import { resolveMcpServer, type McpServerEntry } from "../../src/core/config/resolve-mcp-server.js";
import { mcpPlugin } from "../../src/plugins/mcp/mcp-plugin.js";
import { testPluginContract } from "../plugin-contract.js";
import { EVERYTHING, REPOSITORY } from "./mcp-test-helpers.js";

function everythingEntry(): McpServerEntry {
  const resolved = resolveMcpServer("everything", { command: process.execPath, args: [EVERYTHING, "stdio"] }, { root: REPOSITORY, environment: process.env });
  if (!resolved.ok) throw new Error(JSON.stringify(resolved.problems));
  return resolved.server;
}

testPluginContract<McpServerEntry>("mcp", {
  plugin: () => mcpPlugin(),
  entries: () => [everythingEntry()],
  quickCall: { name: "everything__echo", arguments: { message: "hi" } },
  slowCall: { name: "everything__trigger-long-running-operation", arguments: { duration: 60, steps: 60 } },
});
