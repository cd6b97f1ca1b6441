/**
 * Turns a successful script's stdout into the call's value: JSON when it parses, else the text.
 * A stray `print()` before the JSON keeps the text-as-text rule but says so, since the caller
 * otherwise gets a string where it expected an object and no hint why.
 */
import type { ScriptToolEntry } from "../../core/config/load-tools-config.js";
import type { PluginResult } from "../../core/plugin-contract.js";
import { toolError } from "../../core/tool-result.js";

/** Bytes of partial stdout kept in the details of a timeout, cancel or bad output. */
export const PARTIAL_STDOUT_BYTES = 16 * 1024;

/** The warning on a result whose stdout had text before a JSON value. */
export const TEXT_BEFORE_JSON_WARNING = "stdout had text before the JSON value; the result is returned as text (print debugging output to stderr)";

/** JSON values a script prints start a line; trying more starts than this on one output is not worth it. */
const MAX_JSON_STARTS_TRIED = 16;

/**
 * The line at which a JSON object or array ending the output starts, when text precedes it:
 * `debug: x\n{"a": 1}` → 1. Tries the last few lines that open with `{` or `[`, latest first.
 */
function jsonAfterText(lines: string[]): number | undefined {
  let tried = 0;
  for (let index = lines.length - 1; index > 0 && tried < MAX_JSON_STARTS_TRIED; index--) {
    const opening = lines[index]!.trimStart()[0];
    if (opening !== "{" && opening !== "[") continue;
    tried++;
    try {
      JSON.parse(lines.slice(index).join("\n"));
      // Later lines of a pretty-printed value end in its closing brackets and never parse alone,
      // so the first start that parses, from the end, is the whole value's.
      return index;
    } catch {
      // Not one value from there.
    }
  }
  return undefined;
}

/**
 * @example
 * parseScriptOutput(entry, '{"sum": 3}\n'); // { ok: true, value: { sum: 3 } }
 * parseScriptOutput(entry, 'debug\n{"sum": 3}\n'); // { ok: true, value: 'debug\n{"sum": 3}', warnings: [TEXT_BEFORE_JSON_WARNING] }
 */
export function parseScriptOutput(entry: ScriptToolEntry, stdout: string): PluginResult {
  const trimmed = stdout.trim();
  try {
    if (trimmed !== "") return { ok: true, value: JSON.parse(trimmed) };
  } catch {
    // Not JSON: plain text is a fine result unless the tool promised structured output.
  }
  const textBeforeJson = trimmed !== "" && jsonAfterText(trimmed.split("\n")) !== undefined;
  if (entry.outputSchema !== undefined) {
    const shown = trimmed === "" ? "nothing" : JSON.stringify(trimmed.length > 200 ? `${trimmed.slice(0, 197)}...` : trimmed);
    const why = textBeforeJson ? " (text came before its JSON value: print debugging output to stderr)" : "";
    return toolError("INVALID_OUTPUT", `tools/${entry.scriptPath} declares an outputSchema, so it must print JSON on stdout; it printed ${shown}${why}`, {
      stdout: trimmed.slice(0, PARTIAL_STDOUT_BYTES),
    });
  }
  const value = trimmed === "" ? null : stdout.replace(/\r?\n$/, "");
  return textBeforeJson ? { ok: true, value, warnings: [TEXT_BEFORE_JSON_WARNING] } : { ok: true, value };
}
