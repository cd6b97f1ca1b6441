/**
 * The part of the host's environment that processes toolexec starts (script tools, stdio MCP
 * servers, Python workers) inherit: a small allowlist, never the host's API keys. Shell start-up
 * variables are never honoured, whoever sets them.
 */

const INHERITED = new Set([
  "PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TZ", "TMPDIR", "TEMP", "TMP", "TERM",
  "SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS",
  "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
]);

/** Host variables every started process inherits (plus `LC_*`); anything else must be named in its `env`. */
export const INHERITED_ENV_NAMES: readonly string[] = [...INHERITED];

/**
 * Files bash (`BASH_ENV`) and sh (`ENV`) source before a non-interactive script. Dropped even when a
 * tool's `env` names them: a script must run the same for everyone, with no start-up files.
 */
export const SHELL_STARTUP_VARIABLES: readonly string[] = ["BASH_ENV", "ENV"];

/** Whether a host variable is inherited by the processes toolexec starts. */
export function isInheritedVariable(name: string): boolean {
  return INHERITED.has(name) || name.startsWith("LC_");
}

/**
 * The inherited part of `source` (default: this process's environment).
 *
 * @example
 * const env = { ...inheritedEnvironment(), ...tool.env };
 */
export function inheritedEnvironment(source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) if (value !== undefined && isInheritedVariable(name)) env[name] = value;
  return env;
}
