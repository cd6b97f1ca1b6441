/**
 * A Python environment's build in a person's words, for the host's log (the CLI prints these notes at
 * once): the python plugin's modules and tools and the MCP plugin's Python server files say the same.
 */
import type { EnvironmentProgress } from "./ensure-python-environment.js";
import { describeRequirements, type PythonEnvironmentSpec } from "./python-requirements.js";

/**
 * @example
 * environmentProgressNote({ stage: "built", key, folder, installer: "uv", durationMs: 1400 }, spec, root);
 * // "Python environment of tools.json tools[0] ready in 1.4 s"
 */
export function environmentProgressNote(progress: EnvironmentProgress, spec: PythonEnvironmentSpec, root: string): string {
  const what = `${spec.source} (${describeRequirements(spec.requirements, root)})`;
  if (progress.stage === "waiting") return `Waiting for another process building the Python environment of ${what}`;
  if (progress.stage === "building") return `Building the Python environment of ${what} with ${progress.installer} in ${progress.folder} (first use; reused afterwards)`;
  return `Python environment of ${spec.source} ready in ${(progress.durationMs / 1000).toFixed(1)} s`;
}
