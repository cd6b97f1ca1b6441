/**
 * The search plugin passes the shared plugin contract, under the search-first listing (so it serves
 * both of its tools): `call_tool`'s sub-call is the slow call, ended by the call's signal or by close.
 */
import { abortReasonCode, toolError } from "../../src/plugin.js";
import { searchPlugin } from "../../src/plugins/search/search-plugin.js";
import { testPluginContract } from "../../src/testing.js";
import { deferred } from "../helpers/deferred.js";

/** Resolved each time the slow sub-call reaches the tool it calls. */
let subCallArrived = deferred();

testPluginContract("search", {
  plugin: () => searchPlugin({ searchFirst: true, embeddings: false }),
  entries: () => [],
  context: () => ({
    listTools: () => [{ name: "wait", description: "Waits until cancelled", inputSchema: { type: "object" } }],
  }),
  quickCall: { name: "search_tools", arguments: { query: "wait until cancelled" } },
  slowCall: {
    name: "call_tool",
    arguments: { name: "wait" },
    started: async () => {
      await subCallArrived.promise;
      subCallArrived = deferred();
    },
  },
  // The tool call_tool calls: it waits for its signal, as a tool under the executor's pipeline would.
  async callTool(_name, _args, signal) {
    const stopped = () => ({ ...toolError(abortReasonCode(signal), "stopped"), executionId: "sub", tool: "wait", durationMs: 0 });
    if (signal.aborted) return stopped();
    return new Promise((resolve) => {
      signal.addEventListener("abort", () => resolve(stopped()), { once: true });
      subCallArrived.resolve();
    });
  },
});
