/**
 * `toolexec python sync` and `toolexec python envs`: the Python environments a project's tools
 * (tools.json) and Python MCP server files (mcp.json `python`) declare, built ahead of time or
 * listed, from the configuration alone (nothing is started).
 */
import type { CommandContext } from "./command-context.js";
import { selectProjectFiles } from "./project-options.js";

async function loadConfig(context: CommandContext) {
  const project = selectProjectFiles(context.values, context.cwd, context.command);
  const library = await import("../config.js");
  const config = await library.loadProjectConfig({ root: project.root, toolsConfig: project.toolsConfig, mcpConfig: project.mcpConfig });
  return { library, config };
}

export async function runPythonSync(context: CommandContext): Promise<number> {
  const { library, config } = await loadConfig(context);
  const outcomes = await library.syncPythonEnvironments(config, {
    onProgress(progress) {
      if (progress.stage === "building") context.output.err(`Building ${progress.requirements} with ${progress.installer} in ${progress.folder}…`);
      if (progress.stage === "waiting") context.output.err(`Waiting for another process building ${progress.requirements}…`);
      if (progress.stage === "built") context.output.err(`Built ${progress.requirements} in ${(progress.durationMs / 1000).toFixed(1)} s`);
    },
  });
  if (context.values.json) context.output.out(JSON.stringify(outcomes, null, 2));
  else if (outcomes.length === 0) context.output.out("No Python environment declared (python.requirements, a pyproject.toml beside a module, or an mcp.json server's python.requirements)");
  else for (const outcome of outcomes) context.output.out(outcome.ok ? `ok     ${outcome.key}  ${outcome.requirements}${outcome.built ? " (built now)" : ""}` : `failed ${outcome.key}  ${outcome.message}`);
  return outcomes.every((outcome) => outcome.ok) ? 0 : 1;
}

export async function runPythonEnvs(context: CommandContext): Promise<number> {
  const { library, config } = await loadConfig(context);
  const environments = await library.listPythonEnvironments(config);
  if (context.values.json) {
    context.output.out(JSON.stringify({ folder: library.pythonEnvironmentsFolder(), environments }, null, 2));
    return 0;
  }
  context.output.out(`Environments folder: ${library.pythonEnvironmentsFolder()} (set TOOLEXEC_PYTHON_ENVS to move it)`);
  if (environments.length === 0) context.output.out("No Python environment declared (python.requirements, a pyproject.toml beside a module, or an mcp.json server's python.requirements)");
  for (const environment of environments) {
    const state = environment.built ? `built${environment.builtAt ? ` ${environment.builtAt}` : ""}${environment.installer ? ` with ${environment.installer}` : ""}` : "not built (toolexec python sync)";
    context.output.out(`${environment.key}  ${environment.requirements}\n  ${state}\n  used by: ${environment.usedBy.join(", ")}\n  ${environment.folder}`);
  }
  return 0;
}
