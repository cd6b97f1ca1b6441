/**
 * The JSON paths `read_result` accepts: `$`, then `.name`, `["name"]` and `[index]` steps
 * (`$.rows[3].name`). No wildcards or filters: a path names one place, as the bounded text prints it.
 */

export type JsonPathStep = string | number;

const STEP = /^(?:\.([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]|\['((?:[^'\\]|\\.)*)'\])/;

/** The steps of `path`, or a sentence saying what is wrong with it. */
export function parseJsonPath(path: string): { ok: true; steps: JsonPathStep[] } | { ok: false; message: string } {
  if (!path.startsWith("$")) return { ok: false, message: `Expected a JSON path starting with "$" (e.g. "$.rows[3]"), got ${JSON.stringify(path)}` };
  const steps: JsonPathStep[] = [];
  let rest = path.slice(1);
  while (rest.length > 0) {
    const match = STEP.exec(rest);
    if (!match) return { ok: false, message: `Expected .name, ["name"] or [index] at ${JSON.stringify(rest)} in the path ${JSON.stringify(path)}` };
    if (match[1] !== undefined) steps.push(match[1]);
    else if (match[2] !== undefined) steps.push(Number(match[2]));
    else if (match[3] !== undefined) steps.push(JSON.parse(match[3]) as string);
    else steps.push(match[4]!.replace(/\\(.)/g, "$1"));
    rest = rest.slice(match[0].length);
  }
  return { ok: true, steps };
}

/** The value at `steps` inside `value`, or the first step that is not there. */
export function valueAtPath(value: unknown, steps: readonly JsonPathStep[]): { ok: true; value: unknown } | { ok: false; missingAt: number } {
  let current = value;
  for (const [index, step] of steps.entries()) {
    if (typeof step === "number" ? Array.isArray(current) && step < current.length : current !== null && typeof current === "object" && !Array.isArray(current) && Object.hasOwn(current, step)) {
      current = (current as Record<string | number, unknown>)[step];
    } else return { ok: false, missingAt: index };
  }
  return { ok: true, value: current };
}
