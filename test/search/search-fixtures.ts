/** A small invented catalog and a host plugin whose tools a test can change while it runs. */
import type { ExecutorPlugin, ToolDefinition } from "../../src/plugin.js";

/** A tool definition with an object schema of these properties. */
export const tool = (name: string, description: string, properties: Record<string, { type: string; description?: string }> = {}): ToolDefinition => ({
  name,
  description,
  inputSchema: { type: "object", properties },
});

/** Three trackers, chat, mail, files, a calendar, a shell sandbox: near-duplicates on purpose. */
export const CATALOG: readonly ToolDefinition[] = [
  tool("tracker__create_issue", "Create a new issue in a project tracker.", { title: { type: "string" }, body: { type: "string" } }),
  tool("tracker__update_issue", "Update the title, state or assignee of an existing issue.", { issueId: { type: "string" }, state: { type: "string" } }),
  tool("tracker__list_issues", "List issues of a project, filtered by state or label.", { state: { type: "string" } }),
  tool("board__update_card", "Update a card on the team board: move it between columns or change its owner.", { cardId: { type: "string" } }),
  tool("chat__send_message", "Send a message to a chat channel.", { channel: { type: "string" }, text: { type: "string" } }),
  tool("chat__search_messages", "Search messages across chat channels.", { query: { type: "string" } }),
  tool("mail__delete_email", "Delete an email from the mailbox.", { messageId: { type: "string" } }),
  tool("mail__list_inbox", "List the newest emails in the inbox.", {}),
  tool("files__read_text", "Read a text file from the local disk.", { path: { type: "string", description: "Path of the file" } }),
  tool("files__delete_file", "Delete a file from the local disk.", { path: { type: "string" } }),
  tool("calendar__remove_event", "Remove an event from a calendar.", { eventId: { type: "string" } }),
  tool("calendar__listEvents", "List the events of a calendar between two dates.", { from: { type: "string" }, to: { type: "string" } }),
  tool("forecast__hourly_outlook", "Hourly weather forecast for a city: temperature, precipitation, wind.", { city: { type: "string" } }),
  tool(
    "sandbox__code_execution",
    "Execute JavaScript in a sandbox and return what it prints. Use for arithmetic, data processing, and calling several tools in one program.",
    { code: { type: "string" } },
  ),
];

/** A host plugin serving `tools`; `setTools` changes them and tells the executor. */
export function changingPlugin(initial: readonly ToolDefinition[] = CATALOG) {
  let tools = [...initial];
  const listeners = new Set<() => void>();
  const plugin: ExecutorPlugin = {
    name: "catalog",
    async start() {
      return {
        listTools: () => tools,
        callTool: async () => ({ ok: true, value: null }),
        onToolsChanged(listener) {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
        close: async () => {},
      };
    },
  };
  const setTools = (next: readonly ToolDefinition[]) => {
    tools = [...next];
    for (const listener of listeners) listener();
  };
  return { plugin, setTools };
}
