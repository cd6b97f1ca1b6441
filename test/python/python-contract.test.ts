/** The python plugin passes the shared plugin contract, with real python3 workers. */
import { appendFileSync } from "node:fs";
import path from "node:path";
import { loadProjectConfig } from "../../src/core/config/load-project-config.js";
import type { PythonEntry } from "../../src/core/config/load-tools-config.js";
import { pythonPlugin } from "../../src/plugins/python/python-plugin.js";
import { testPluginContract } from "../../src/testing.js";
import { fileAppears, pythonProject, textTools } from "./python-test-helpers.js";

let marker = "";
let module = "";
let root = "";

testPluginContract<PythonEntry>("python", {
  // The project's root: modules are imported only from inside its tools/ folder.
  context: () => ({ root }),
  plugin: () => pythonPlugin({ maxWorkers: 2 }),
  entries: async () => {
    const project = pythonProject(textTools("word_count", "sleep_in_c"));
    root = project.root;
    marker = path.join(project.root, "started");
    module = project.path("tools/text_tools.py");
    return (await loadProjectConfig({ root: project.root, mcpConfig: false })).entries.python;
  },
  quickCall: { name: "word_count", arguments: { text: "one two three" } },
  slowCall: {
    name: "sleep_in_c",
    get arguments() {
      return { marker, seconds: 60 };
    },
    started: () => fileAppears(marker),
  },
  // An edited module is noticed at its next call, which reads its schemas again.
  changeTools: async (instance) => {
    appendFileSync(module, `\n# edited ${Date.now()} ${Math.random()}\n`);
    const options = { signal: new AbortController().signal, deadline: Date.now() + 10_000, callTool: () => Promise.reject(new Error("no sub-calls")) };
    await instance.callTool({ name: "word_count", arguments: { text: "a b" }, executionId: "edit" }, options as never);
  },
});
