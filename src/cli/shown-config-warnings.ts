/**
 * Config warnings (another client's `globalShortcut`, an unset variable of one server) are printed
 * once per content of their file, not by every command: what was shown is remembered in
 * `.toolexec/shown-warnings.json` as hashes of (file content, warning). An edit of the file shows its
 * warnings again; `validate` and `serve` always show them. Where the project folder cannot be
 * written, every warning is shown.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { formatConfigIssue, type ConfigIssue } from "../index.js";

export const SHOWN_WARNINGS_FILE = ".toolexec/shown-warnings.json";

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

function readShown(file: string): Set<string> {
  try {
    const stored = JSON.parse(readFileSync(file, "utf8")) as { shown?: unknown };
    return new Set(Array.isArray(stored.shown) ? stored.shown.filter((key): key is string => typeof key === "string") : []);
  } catch {
    return new Set();
  }
}

/**
 * Of `messages` (what the executor logged while starting), those to print: every message that is
 * not one of `warnings`, and each of `warnings` not shown before for its file's current content.
 * Remembers the current warnings only, so the record never outgrows the config.
 *
 * @example
 * const print = messagesToShow(root, buffered, executor.configStatus().warnings);
 */
export function messagesToShow(root: string, messages: readonly string[], warnings: readonly ConfigIssue[]): string[] {
  const record = path.join(root, SHOWN_WARNINGS_FILE);
  const shown = readShown(record);
  const contents = new Map<string, string>();
  const keys = new Map<string, string>();
  for (const warning of warnings) {
    const file = path.resolve(root, warning.file);
    if (!contents.has(file)) contents.set(file, readText(file));
    const text = formatConfigIssue(warning);
    keys.set(text, createHash("sha256").update(contents.get(file)!).update("\0").update(text).digest("hex"));
  }
  const print = messages.filter((message) => {
    const key = keys.get(message);
    return key === undefined || !shown.has(key);
  });
  try {
    mkdirSync(path.dirname(record), { recursive: true });
    writeFileSync(record, `${JSON.stringify({ shown: [...keys.values()] }, null, 2)}\n`);
  } catch {
    // A read-only project: warnings are shown every time, as before.
    return [...messages];
  }
  return print;
}
