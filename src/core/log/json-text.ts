/**
 * JSON texts the host already holds for values it parsed or serialized (a code run's result as its
 * frame carried it, a call's arguments as their snapshot serialized them), so the execution log can
 * snapshot such a value by reference instead of serializing it again on the call path.
 */

/** Texts shorter than this are not remembered: serializing them again costs less than keeping them. */
export const MIN_REMEMBERED_JSON_CHARS = 16 * 1024;

/**
 * The field a text may stand for: a call's arguments copy can come back as its value after the tool
 * changed it, so its text stands for `arguments` only.
 */
export type JsonTextField = "arguments" | "value";

const texts = { arguments: new WeakMap<object, string>(), value: new WeakMap<object, string>() };

/**
 * Remember that `json` is the JSON text of `value`, as parsed or serialized just now, for when it is
 * logged as `field`. The caller vouches for it: `JSON.parse(json)` gave `value`, or
 * `JSON.stringify(value)` gave `json`.
 *
 * @example
 * const value = JSON.parse(text);
 * rememberJsonText(value, text, "value");
 */
export function rememberJsonText(value: unknown, json: string, field: JsonTextField): void {
  if (value !== null && typeof value === "object" && json.length >= MIN_REMEMBERED_JSON_CHARS) texts[field].set(value, json);
}

/** The remembered JSON text of `value` logged as `field`, if any. */
export function jsonTextOf(value: unknown, field: string): string | undefined {
  return value !== null && typeof value === "object" && (field === "arguments" || field === "value") ? texts[field].get(value) : undefined;
}
