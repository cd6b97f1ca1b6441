/**
 * Before the python plugin reads its modules: the environment of every entry that declares one,
 * built when missing (each distinct one once, side by side). A build is told as it goes — a note in
 * the host's log (the CLI prints notes at once) and `python:environment` events — and an entry
 * whose environment cannot be built is left out with the installer's words, while the others run.
 */
import type { PluginContext, ToolErrorInfo } from "../../core/plugin-contract.js";
import { ensurePythonEnvironment, PythonEnvironmentError, type EnvironmentProgress } from "../../core/python-environments/ensure-python-environment.js";
import { environmentProgressNote } from "../../core/python-environments/environment-progress-note.js";
import type { PythonEntry } from "./python-plugin.js";
import "./python-events.js";

export interface PreparedEnvironments {
  /** The interpreter an entry's workers run: its environment's, or the one configured. */
  interpreterOf(entry: PythonEntry): string;
  /** Entries whose environment could not be built, with what their calls answer. */
  failures: Map<PythonEntry, ToolErrorInfo>;
}

/**
 * @example
 * const prepared = await prepareEnvironments(entries, context);
 * const interpreter = prepared.interpreterOf(entry);
 */
export async function prepareEnvironments(entries: PythonEntry[], context: PluginContext<unknown>): Promise<PreparedEnvironments> {
  const interpreters = new Map<PythonEntry, string>();
  const failures = new Map<PythonEntry, ToolErrorInfo>();
  // One request per distinct (spec, interpreter, folder): ensurePythonEnvironment builds each key once anyway.
  const requests = new Map<string, PythonEntry[]>();
  for (const entry of entries) {
    if (!entry.pythonEnvironment) continue;
    const key = JSON.stringify([entry.pythonEnvironment.requirements, entry.pythonEnvironment.installer ?? null, entry.interpreter, entry.cwd]);
    requests.set(key, [...(requests.get(key) ?? []), entry]);
  }
  await Promise.all(
    [...requests.values()].map(async (group) => {
      const first = group[0]!;
      const spec = first.pythonEnvironment!;
      const onProgress = (progress: EnvironmentProgress) => {
        context.logger.info(environmentProgressNote(progress, spec, context.root));
        context.emit("python:environment", { ...progress, source: spec.source });
      };
      try {
        const environment = await ensurePythonEnvironment(spec, { interpreter: first.interpreter, cwd: first.cwd, onProgress });
        for (const entry of group) interpreters.set(entry, environment.interpreter);
      } catch (error) {
        const message = (error as Error).message;
        const details = error instanceof PythonEnvironmentError ? error.details : { source: spec.source };
        context.logger.warn(message, { source: spec.source });
        context.emit("python:environment", { stage: "failed", source: spec.source, message: message.slice(0, 2000) });
        for (const entry of group) failures.set(entry, { code: "TOOL_FAILED", message, details });
      }
    }),
  );
  return { interpreterOf: (entry) => interpreters.get(entry) ?? entry.interpreter, failures };
}
