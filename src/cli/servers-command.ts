/** `toolexec servers`: connect to every MCP server and show each one's state. */
import type { CommandContext } from "./command-context.js";
import { selectProjectFiles } from "./project-options.js";
import { withExecutor } from "./with-executor.js";

export async function runServers(context: CommandContext): Promise<number> {
  const project = selectProjectFiles(context.values, context.cwd, context.command);
  const format = await import("./format.js");
  const servers = await withExecutor(context, project, { logDir: false }, async (executor) => executor.servers());
  context.output.out(context.values.json ? JSON.stringify(servers, null, 2) : format.formatServerList(servers, Date.now()));
  // 1 when an enabled server is not connected, so scripts can check that every server is up.
  return format.serversWithoutTools(servers).length === 0 ? 0 : 1;
}
