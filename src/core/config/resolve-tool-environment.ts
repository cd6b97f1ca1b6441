/**
 * A tool's `env` (tools.json's tools, `defaults`, and every tool source that takes one) with
 * `${VAR}` / `${VAR:-default}` / `${env:VAR}` taken from the host's environment, so secrets can stay
 * out of the file; an unset variable is an error, a shell start-up variable a warning.
 */
import { SHELL_STARTUP_VARIABLES } from "../host-environment.js";
import { interpolateEnvironment, unsetVariablesMessage } from "./interpolate-environment.js";
import type { JsonPath } from "../json/parse-json-document.js";

/** Variables bash would run as startup files; the script plugin drops them, so say so. */
const IGNORED_VARIABLES = new Set(SHELL_STARTUP_VARIABLES);

/** `env` resolved; each problem is reported at `at` + the variable's name. */
export function resolveToolEnvironment(
  env: Record<string, string>,
  at: JsonPath,
  report: (at: JsonPath, message: string, warning?: boolean) => void,
): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (IGNORED_VARIABLES.has(name)) {
      report([...at, name], `"${name}" is ignored: scripts run without shell startup files`, true);
      continue;
    }
    const result = interpolateEnvironment(value, process.env);
    if (result.ok) {
      // A "__proto__" variable is a variable like any other, not the object's prototype.
      Object.defineProperty(resolved, name, { value: result.value, enumerable: true, writable: true, configurable: true });
    } else {
      report([...at, name], unsetVariablesMessage(result.missing));
    }
  }
  return resolved;
}
