/** The code plugin passes the shared plugin contract, with real runtimes. */
import { resolveCodeExecutionOptions, type ResolvedCodeExecutionOptions } from "../../src/plugins/code/code-execution-options.js";
import { codePlugin } from "../../src/plugins/code/code-plugin.js";
import { testPluginContract } from "../../src/testing.js";

testPluginContract<ResolvedCodeExecutionOptions>("code", {
  plugin: codePlugin,
  entries: () => [resolveCodeExecutionOptions({ enabled: true, poolSize: 1 }, undefined)],
  quickCall: { name: "code_execution", arguments: { code: "1 + 1" } },
  // code:start is emitted once the run's request is accepted and it heads for a runtime.
  slowCall: { name: "code_execution", arguments: { code: "while (true) {}" }, started: ({ emitted }) => emitted("code:start") },
});
