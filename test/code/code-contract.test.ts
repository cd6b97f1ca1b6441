/** The code plugin passes the shared plugin contract, with real runtimes. */
import { resolveCodeExecutionOptions, type ResolvedCodeExecutionOptions } from "../../src/plugins/code/config/code-execution-options.js";
import { codePlugin } from "../../src/plugins/code/code-plugin.js";
import type { SavedToolsApi } from "../../src/plugins/code/saved/saved-tools.js";
import { testPluginContract } from "../../src/testing.js";

const settings: ResolvedCodeExecutionOptions = resolveCodeExecutionOptions({ enabled: true, poolSize: 1 }, undefined);

testPluginContract("code", {
  plugin: () => codePlugin(),
  entries: () => [],
  context: () => ({ config: settings }),
  quickCall: { name: "code_execution", arguments: { code: "1 + 1" } },
  // code:start is emitted once the run's request is accepted and it heads for a runtime.
  slowCall: { name: "code_execution", arguments: { code: "while (true) {}" }, started: ({ emitted }) => emitted("code:start") },
  // Saved tools change its list: save a probe tool, then delete it (the suite runs in the repository's folder).
  async changeTools(instance) {
    const api = instance.api as SavedToolsApi;
    if (await api.showSavedTool("contract_probe")) await api.deleteSavedTool("contract_probe");
    else await api.saveTool({ name: "contract_probe", description: "A probe of the contract suite", inputSchema: { type: "object" }, code: "1" });
  },
});
