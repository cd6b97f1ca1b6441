/**
 * The environment a script sees: a small allowlist from the host (never the host's API keys), the
 * tool's own `env`, and toolexec's variables. Shell rc files are kept out (`BASH_ENV`, `ENV`).
 */

const INHERITED = new Set([
  "PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TZ", "TMPDIR", "TEMP", "TMP", "TERM",
  "SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS",
  "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
]);

/**
 * Files bash (`BASH_ENV`) and sh (`ENV`) source before a non-interactive script. Dropped even when a
 * tool's `env` names them: a script must run the same for everyone, with no startup files.
 */
const SHELL_STARTUP_VARIABLES = ["BASH_ENV", "ENV"];

/** Host variables every script inherits (plus `LC_*`); anything else must be named in the tool's `env`. */
export const INHERITED_ENV_NAMES: readonly string[] = [...INHERITED];

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
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && (INHERITED.has(name) || name.startsWith("LC_"))) env[name] = value;
  }
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
