/**
 * `${VAR}`, `${VAR:-default}` and VS Code's `${env:VAR}` in config strings, from the host's
 * environment. `$${` stays a literal `${`. A variable that is unset (and has no default) is an
 * error for the caller to report with file and JSON path.
 */

export type InterpolationResult = { ok: true; value: string } | { ok: false; missing: string[] };

const REFERENCE = /\$(\$?)\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * @example
 * interpolateEnvironment("Bearer ${API_TOKEN}", process.env); // { ok: true, value: "Bearer abc" }
 * interpolateEnvironment("${PORT:-8080}", {});               // { ok: true, value: "8080" }
 */
export function interpolateEnvironment(text: string, environment: Record<string, string | undefined>): InterpolationResult {
  const missing: string[] = [];
  const value = text.replace(REFERENCE, (whole, escaped: string, name: string, fallback: string | undefined) => {
    if (escaped) return whole.slice(1);
    const found = environment[name];
    if (found !== undefined && found !== "") return found;
    if (fallback !== undefined) return fallback;
    if (found === "") return "";
    missing.push(name);
    return whole;
  });
  return missing.length > 0 ? { ok: false, missing: [...new Set(missing)] } : { ok: true, value };
}

/** True when `text` refers to the environment, so its value may be a secret. */
export function hasEnvironmentReference(text: string): boolean {
  REFERENCE.lastIndex = 0;
  return [...text.matchAll(REFERENCE)].some((match) => match[1] === "");
}

/** The values of the environment variables `text` refers to (set ones only), to treat as secrets. */
export function referencedValues(text: string, environment: Record<string, string | undefined>): string[] {
  REFERENCE.lastIndex = 0;
  return [...text.matchAll(REFERENCE)]
    .filter((match) => match[1] === "")
    .map((match) => environment[match[2]!])
    .filter((value): value is string => value !== undefined && value !== "");
}

/**
 * What to say about variables that are not set: which, and how to give a default. `where` names the
 * place when the config path alone does not (`server "github"`).
 *
 * @example
 * unsetVariablesMessage(["API_TOKEN"]); // 'Environment variable "API_TOKEN" is not set on the host; set it, or give a default with ${API_TOKEN:-value}'
 */
export function unsetVariablesMessage(missing: string[], where?: string): string {
  const variables = missing.map((variable) => `"${variable}"`).join(", ");
  return `Environment variable ${variables} is not set on the host${where === undefined ? "" : ` (${where})`}; set it, or give a default with \${${missing[0]}:-value}`;
}
