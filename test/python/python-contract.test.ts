/**
 * The python plugin passes the shared plugin contract, with real python3 workers: once with
 * tools.json function entries, once with tools discovered from a pythonModules file.
 */
import { appendFileSync } from "node:fs";
import path from "node:path";
import { loadProjectConfig, type PythonEntry } from "../../src/config.js";
import { pythonPlugin } from "../../src/plugins/python/python-plugin.js";
import { testPluginContract } from "../../src/testing.js";
import type { TempProject } from "../helpers/temp-project.js";
import { discoveringProject, startedPid, pythonProject, textTools } from "./python-test-helpers.js";

interface Variant {
  label: string;
  project(): TempProject;
  /** The module the tools come from, relative to the project. */
  module: string;
  /** What an edit appends to it: a comment, or a new marked tool. */
  edit(): string;
}

const VARIANTS: Variant[] = [
  {
    label: "python",
    project: () => pythonProject(textTools("word_count", "sleep_in_c")),
    module: "tools/text_tools.py",
    edit: () => `\n# edited ${Date.now()} ${Math.random()}\n`,
  },
  {
    label: "python (discovered tools)",
    project: () => discoveringProject(["marked_contract_tools.py"]),
    module: "tools/marked_contract_tools.py",
    edit: () => `\n\n@tool\ndef added_${Date.now()}() -> int:\n    return 1\n`,
  },
];

for (const variant of VARIANTS) {
  let marker = "";
  let module = "";
  let root = "";

  testPluginContract<PythonEntry>(variant.label, {
    // The project's root: modules are imported only from inside its tools/ folder.
    context: () => ({ root }),
    plugin: () => pythonPlugin({ maxWorkers: 2 }),
    entries: async () => {
      const project = variant.project();
      root = project.root;
      marker = path.join(project.root, "started");
      module = project.path(variant.module);
      const config = await loadProjectConfig({ root: project.root, mcpConfig: false });
      return [...config.entries.python, ...config.sections.python.modules];
    },
    quickCall: { name: "word_count", arguments: { text: "one two three" } },
    slowCall: {
      name: "sleep_in_c",
      get arguments() {
        return { marker, seconds: 60 };
      },
      started: async () => void (await startedPid(marker)),
    },
    // An edited module is read again at its next call (which reads its schemas again), or when the list is read.
    changeTools: async (instance) => {
      appendFileSync(module, variant.edit());
      const options = { signal: new AbortController().signal, deadline: Date.now() + 10_000, callTool: () => Promise.reject(new Error("no sub-calls")) };
      await instance.callTool({ name: "word_count", arguments: { text: "a b" }, executionId: "edit" }, options as never);
    },
  });
}
