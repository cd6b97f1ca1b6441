/** Whether a tools.json entry is a whole script tool or a whole function tool, from its keys alone. */
import type { JsonPath } from "../json/parse-json-document.js";
import type { ToolEntryFile } from "./tools-config-schema.js";

/** Keys that only a script tool has; a function tool runs on a warm Python worker. */
const SCRIPT_ONLY_KEYS = ["runtime", "args", "maxOutputBytes"] as const;

/**
 * A tool is a script (`runtime` + `script`, with `description` and `inputSchema`) or a Python
 * function (`function`); one message per wrong or missing key. False when the entry cannot be resolved.
 */
export function checkEntryKind(tool: ToolEntryFile, at: (...rest: JsonPath) => JsonPath, report: (at: JsonPath, message: string) => void): boolean {
  let ok = true;
  if (tool.function === undefined && tool.memoryLimitMb !== undefined) {
    report(at("memoryLimitMb"), '"memoryLimitMb" applies to function tools only: it caps a warm Python worker (remove it, or name a function)');
    ok = false;
  }
  if (tool.function !== undefined) {
    if (tool.script !== undefined) {
      report(at("script"), 'Expected either "script" or "function", got both: a function tool names a Python function ("file.py:name") and has no script');
      ok = false;
    }
    for (const key of SCRIPT_ONLY_KEYS) {
      if (tool[key] === undefined) continue;
      report(at(key), `"${key}" applies to script tools only; a function tool runs on a warm Python worker (remove "${key}")`);
      ok = false;
    }
    return ok;
  }
  const required = [
    ["description", "a string"],
    ["runtime", 'one of "python", "shell", "node"'],
    ["script", 'a string; or name a Python function with "function": "file.py:name"'],
    ["inputSchema", "an object"],
  ] as const;
  for (const [key, expected] of required) {
    if (tool[key] !== undefined) continue;
    report(at(), `Missing required key "${key}" (expected ${expected})`);
    ok = false;
  }
  return ok;
}
