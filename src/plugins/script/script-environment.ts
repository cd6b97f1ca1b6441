/**
 * The environment a script sees: a small allowlist from the host (never the host's API keys), the
 * tool's own `env`, and toolexec's variables. Shell rc files are kept out (`BASH_ENV`, `ENV`).
 */
import { SHELL_STARTUP_VARIABLES, inheritedEnvironment } from "../../core/host-environment.js";

/** Values larger than this are not exported as `TOOLEXEC_ARG_*` (they stay on stdin). */
export const MAX_ARGUMENT_VARIABLE_BYTES = 32 * 1024;

/** `outputFile` → `TOOLEXEC_ARG_OUTPUTFILE`, `max-rows` → `TOOLEXEC_ARG_MAX_ROWS`. */
export function argumentVariableName(name: string): string {
  return `TOOLEXEC_ARG_${name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;
}

export interface ScriptEnvironmentInput {
  toolEnv: Record<string, string>;
  toolName: string;
  executionId: string;
  root: string;
  deadline: number;
  /** For shell tools: top-level arguments are also exported as `TOOLEXEC_ARG_<NAME>`. */
  exportArguments?: Record<string, unknown>;
}

export function buildScriptEnvironment(input: ScriptEnvironmentInput): Record<string, string> {
  const env = inheritedEnvironment();
  Object.assign(env, input.toolEnv, {
    PYTHONUNBUFFERED: "1",
    PYTHONIOENCODING: "utf-8",
    TOOLEXEC_TOOL: input.toolName,
    TOOLEXEC_EXECUTION_ID: input.executionId,
    TOOLEXEC_ROOT: input.root,
    TOOLEXEC_DEADLINE_MS: String(input.deadline),
  });
  for (const name of SHELL_STARTUP_VARIABLES) delete env[name];
  for (const [name, value] of Object.entries(input.exportArguments ?? {})) {
    if (value === null || value === undefined) continue;
    const text = typeof value === "string" ? value : JSON.stringify(value);
    // NUL cannot live in an environment variable; such values stay on stdin only.
    if (Buffer.byteLength(text) <= MAX_ARGUMENT_VARIABLE_BYTES && !text.includes("\0")) env[argumentVariableName(name)] = text;
  }
  return env;
}
