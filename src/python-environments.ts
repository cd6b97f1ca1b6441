/**
 * The Python environments a project's tools declare — function tools, `pythonModules` files,
 * python-runtime scripts and mcp.json's Python server files alike — listed or built ahead of time
 * (`toolexec python sync` for CI and deploys), from the project's configuration alone: no tool is started.
 */
import type { PythonEntry } from "./plugins/python/python-plugin.js";
import type { ScriptToolEntry } from "./core/config/load-tools-config.js";
import { ensurePythonEnvironment, locatePythonEnvironment, PythonEnvironmentError, readEnvironmentRecord, type EnvironmentProgress } from "./core/python-environments/ensure-python-environment.js";
import { pythonEnvironmentsFolder } from "./core/python-environments/environments-folder.js";
import { describeRequirements, type PythonEnvironmentSpec } from "./core/python-environments/python-requirements.js";
import type { ProjectConfig } from "./load-project-config.js";
import type { McpServerEntry } from "./plugins/mcp/config/resolve-mcp-server.js";

export { pythonEnvironmentsFolder };
export type { EnvironmentProgress, PythonEnvironmentSpec };

/** One environment a project needs. */
export interface ProjectPythonEnvironment {
  /** Its folder's name: a hash of its requirements and base interpreter. */
  key: string;
  folder: string;
  /** Its interpreter: what the tools' workers and scripts run. */
  interpreter: string;
  /** The base interpreter it is made from (real path). */
  baseInterpreter: string;
  /** The requirements in words: `tabulate==0.9.0` or `tools/requirements.txt`. */
  requirements: string;
  /** The tools and modules that run in it: `tool version`, `module tools/report.py`, `script tool fetch`. */
  usedBy: string[];
  /** Where its requirements are declared, one per place. */
  sources: string[];
  built: boolean;
  /** When it was built, from its record. */
  builtAt?: string;
  installer?: string;
}

/** What runs in an environment: a tool, a module, a script, or an mcp.json Python server file. */
interface Declaring {
  pythonEnvironment: PythonEnvironmentSpec;
  interpreter?: string;
  cwd: string;
}

/** mcp.json's Python server files, as environments' users (`MCP server weather`). */
function pythonServers(servers: McpServerEntry[]): Array<{ entry: Declaring; label: string }> {
  return servers.flatMap((server) => {
    const launch = server.transport === "stdio" ? server.python : undefined;
    if (!launch?.environment) return [];
    return [{ entry: { pythonEnvironment: launch.environment, interpreter: launch.interpreter, cwd: launch.root }, label: `MCP server ${server.name}` }];
  });
}

function declaring(config: ProjectConfig): Array<{ entry: Declaring; label: string }> {
  const all: Array<{ entry: PythonEntry | ScriptToolEntry | Declaring; label: string }> = [
    ...config.entries.python.map((entry) => ({ entry, label: `tool ${entry.name}` })),
    ...config.sections.python.modules.map((entry) => ({ entry, label: `module tools/${entry.modulePath}` })),
    ...config.entries.script.map((entry) => ({ entry, label: `script tool ${entry.name}` })),
    ...pythonServers(config.sections.mcp),
  ];
  return all.filter((item): item is { entry: Declaring; label: string } => item.entry.pythonEnvironment !== undefined);
}

/**
 * The project's environments, each once, with whether it is built.
 *
 * @example
 * const environments = await listPythonEnvironments(await loadProjectConfig({ root }));
 */
export async function listPythonEnvironments(config: ProjectConfig): Promise<ProjectPythonEnvironment[]> {
  const byKey = new Map<string, ProjectPythonEnvironment>();
  for (const { entry, label } of declaring(config)) {
    const spec = entry.pythonEnvironment;
    const located = await locatePythonEnvironment(spec, { interpreter: entry.interpreter ?? "python3", cwd: entry.cwd });
    const known = byKey.get(located.key);
    if (known) {
      known.usedBy.push(label);
      if (!known.sources.includes(spec.source)) known.sources.push(spec.source);
      continue;
    }
    const record = located.built ? await readEnvironmentRecord(located.folder) : undefined;
    byKey.set(located.key, {
      key: located.key,
      folder: located.folder,
      interpreter: located.interpreter,
      baseInterpreter: located.base,
      requirements: describeRequirements(spec.requirements, config.root),
      usedBy: [label],
      sources: [spec.source],
      built: located.built,
      ...(typeof record?.["builtAt"] === "string" ? { builtAt: record["builtAt"] } : {}),
      ...(typeof record?.["installer"] === "string" ? { installer: record["installer"] } : {}),
    });
  }
  return [...byKey.values()];
}

/** How one environment's sync ended. */
export type SyncOutcome = { key: string; requirements: string; ok: true; built: boolean } | { key: string; requirements: string; ok: false; message: string; details: Record<string, unknown> };

/**
 * Build every environment the project needs that is not built yet, side by side; a failure does not stop the others.
 *
 * @example
 * const outcomes = await syncPythonEnvironments(config, { onProgress: (progress) => console.error(progress.stage) });
 */
export async function syncPythonEnvironments(config: ProjectConfig, options: { onProgress?(progress: EnvironmentProgress & { requirements: string }): void } = {}): Promise<SyncOutcome[]> {
  const seen = new Map<string, Declaring>();
  for (const { entry } of declaring(config)) {
    const located = await locatePythonEnvironment(entry.pythonEnvironment, { interpreter: entry.interpreter ?? "python3", cwd: entry.cwd });
    if (!seen.has(located.key)) seen.set(located.key, entry);
  }
  return Promise.all(
    [...seen].map(async ([key, entry]): Promise<SyncOutcome> => {
      const requirements = describeRequirements(entry.pythonEnvironment.requirements, config.root);
      try {
        const onProgress = (progress: EnvironmentProgress) => options.onProgress?.({ ...progress, requirements });
        const environment = await ensurePythonEnvironment(entry.pythonEnvironment, { interpreter: entry.interpreter ?? "python3", cwd: entry.cwd, onProgress });
        return { key, requirements, ok: true, built: environment.built };
      } catch (error) {
        return { key, requirements, ok: false, message: (error as Error).message, details: error instanceof PythonEnvironmentError ? error.details : {} };
      }
    }),
  );
}
