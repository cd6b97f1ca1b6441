/**
 * The environment of a warm worker: the small host allowlist (never the host's API keys), the
 * tools' own `env`, and Python settings. Per-call values such as the execution id are not
 * environment variables here, because one worker serves many calls.
 */
import { SHELL_STARTUP_VARIABLES, inheritedEnvironment } from "../../core/host-environment.js";

export function buildWorkerEnvironment(toolEnv: Record<string, string>, root: string): Record<string, string> {
  const env = inheritedEnvironment();
  Object.assign(env, toolEnv, {
    PYTHONUNBUFFERED: "1",
    PYTHONIOENCODING: "utf-8",
    // A tool module's own __pycache__ would appear in tools/ on every edit; the import is paid once per worker anyway.
    PYTHONDONTWRITEBYTECODE: "1",
    TOOLEXEC_ROOT: root,
  });
  for (const name of SHELL_STARTUP_VARIABLES) delete env[name];
  return env;
}
