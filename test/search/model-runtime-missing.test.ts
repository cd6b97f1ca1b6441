/**
 * Without the optional runtime packages, the package still searches lexically, and toolSearch.model
 * is a clear error naming the missing package. Real child processes run the built package from a
 * node_modules that lacks the package (every other one linked in), as an install without it would.
 */
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { createTempProject } from "../helpers/temp-project.js";
import { SEARCH_MODEL_FOLDER, skipWithoutModel } from "./search-model-folder.js";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const realModules = path.join(repositoryRoot, "node_modules");

/** A project whose node_modules has toolexec (built) and every installed package but `missing`. */
function installWithout(missing: string): string {
  const { root } = createTempProject({ tools: { tools: [] } });
  const modules = path.join(root, "node_modules");
  mkdirSync(modules);
  for (const entry of readdirSync(realModules)) {
    if (entry.startsWith(".")) continue;
    if (!entry.startsWith("@")) {
      if (entry !== missing) symlinkSync(path.join(realModules, entry), path.join(modules, entry));
      continue;
    }
    mkdirSync(path.join(modules, entry));
    for (const scoped of readdirSync(path.join(realModules, entry))) if (`${entry}/${scoped}` !== missing) symlinkSync(path.join(realModules, entry, scoped), path.join(modules, entry, scoped));
  }
  mkdirSync(path.join(modules, "toolexec"));
  for (const part of ["package.json", "dist", "data"]) symlinkSync(path.join(repositoryRoot, part), path.join(modules, "toolexec", part));
  writeFileSync(
    path.join(root, "search.mjs"),
    `import { createExecutor } from "toolexec";
const model = process.argv[2];
try {
  const executor = await createExecutor({ root: process.cwd(), watch: false, logDir: false, mcpConfig: false, toolSearch: model ? { model } : { offerTool: true } });
  console.log(JSON.stringify({ ok: true, results: await executor.searchTools("search for tools") }));
  await executor.close();
} catch (error) {
  console.log(JSON.stringify({ ok: false, code: error.code, message: error.message, details: error.details }));
}
`,
  );
  return root;
}

/** Run the project's script with symlinks kept as paths, so packages resolve from its node_modules only. */
async function run(root: string, model?: string) {
  const { stdout } = await execa("node", ["--preserve-symlinks", "--preserve-symlinks-main", "search.mjs", ...(model ? [model] : [])], { cwd: root, env: { NODE_PATH: "" } });
  return JSON.parse(stdout.trim().split("\n").at(-1) as string);
}

describe.skipIf(skipWithoutModel)("toolSearch.model without its optional runtime", () => {
  it.each(["onnxruntime-node", "@huggingface/tokenizers"])("names %s when it is not installed, and searches without a model", async (missing) => {
    const root = installWithout(missing);
    expect(await run(root, SEARCH_MODEL_FOLDER)).toEqual({
      ok: false,
      code: "PLUGIN_FAILED",
      message: `toolSearch.model needs the package "${missing}", which is not installed: run npm install onnxruntime-node @huggingface/tokenizers (optional peer dependencies of toolexec), or remove toolSearch.model`,
      details: { package: missing },
    });
    const lexical = await run(root);
    expect(lexical.ok).toBe(true);
    expect(lexical.results[0]).toMatchObject({ name: "search_tools" });
  });
});
