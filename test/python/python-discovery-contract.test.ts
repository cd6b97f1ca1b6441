/** The python plugin passes the shared plugin contract with tools discovered from a pythonModules file. */
import { appendFileSync } from "node:fs";
import path from "node:path";
import { loadProjectConfig } from "../../src/core/config/load-project-config.js";
import type { PythonEntry } from "../../src/core/config/load-tools-config.js";
import { pythonPlugin } from "../../src/plugins/python/python-plugin.js";
import { testPluginContract } from "../../src/testing.js";
import { discoveringProject, fileAppears } from "./python-test-helpers.js";

let marker = "";
let module = "";
let root = "";

testPluginContract<PythonEntry>("python (discovered tools)", {
  // The project's root: modules are imported only from inside its tools/ folder.
  context: () => ({ root }),
  plugin: () => pythonPlugin({ maxWorkers: 2 }),
  entries: async () => {
    const project = discoveringProject(["marked_contract_tools.py"]);
    root = project.root;
    marker = path.join(project.root, "started");
    module = project.path("tools/marked_contract_tools.py");
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
  // An edited module is read again at its next call, or when the list is read: here a new tool appears.
  changeTools: async (instance) => {
    appendFileSync(module, `\n\n@tool\ndef added_${Date.now()}() -> int:\n    return 1\n`);
    const options = { signal: new AbortController().signal, deadline: Date.now() + 10_000, callTool: () => Promise.reject(new Error("no sub-calls")) };
    await instance.callTool({ name: "word_count", arguments: { text: "a b" }, executionId: "edit" }, options as never);
  },
});
