/**
 * Preload (`node --import`) that lets `@modelcontextprotocol/conformance` run on Node 20: its CLI
 * imports `globSync` from `fs`, which Node added in 22. A named export cannot be added to a builtin
 * after the fact (`syncBuiltinESMExports` only refreshes existing names), so module hooks hand that
 * package — and only it — a stand-in `fs`: all of node:fs plus the `globSync` below. On a Node
 * that has `globSync`, nothing is registered.
 */
import fs from "node:fs";
import { register } from "node:module";
import path from "node:path";
import { isMainThread } from "node:worker_threads";

const SHIM_URL = "toolexec-node20-shim:fs";
const CONFORMANCE_PACKAGE = "/node_modules/@modelcontextprotocol/conformance/";

// The hooks below run on Node's loader thread, which evaluates this file again: register from the main thread only.
if (isMainThread && typeof fs.globSync !== "function") register(import.meta.url);

/** Loader hook: `fs` / `node:fs` imported from the conformance package resolves to the shim. */
export async function resolve(specifier, context, nextResolve) {
  if ((specifier === "fs" || specifier === "node:fs") && context.parentURL?.includes(CONFORMANCE_PACKAGE)) {
    return { url: SHIM_URL, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

/** Loader hook: the shim's source re-exports node:fs and adds `globSync` from this file. */
export async function load(url, context, nextLoad) {
  if (url !== SHIM_URL) return nextLoad(url, context);
  const source = [
    'export * from "node:fs";',
    'export { default } from "node:fs";',
    `export { globSync } from ${JSON.stringify(import.meta.url)};`,
  ].join("\n");
  return { format: "module", source, shortCircuit: true };
}

/** One glob pattern as a RegExp over `/`-separated relative paths: `**`, `*`, `?`, `{a,b}`. */
function patternToRegExp(pattern) {
  let source = "";
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index];
    if (char === "*" && pattern[index + 1] === "*") {
      const slash = pattern[index + 2] === "/";
      source += slash ? "(?:.*/)?" : ".*";
      index += slash ? 2 : 1;
    } else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else if (char === "{") {
      const close = pattern.indexOf("}", index);
      if (close < 0) source += "\\{";
      else {
        source += `(?:${pattern.slice(index + 1, close).split(",").map((part) => part.replace(/[.+^$()|[\]\\]/g, "\\$&")).join("|")})`;
        index = close;
      }
    } else source += char.replace(/[.+^$()|[\]\\{}]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

/**
 * A small `fs.globSync` (Node 22's signature): paths under `options.cwd` matching one of the
 * patterns, relative to it, files and folders alike. Enough for the conformance CLI, which globs
 * `**\/checks.json`.
 */
export function globSync(patterns, options = {}) {
  const cwd = options.cwd === undefined ? process.cwd() : String(options.cwd instanceof URL ? options.cwd.pathname : options.cwd);
  const matchers = (Array.isArray(patterns) ? patterns : [patterns]).map(patternToRegExp);
  const exclude = typeof options.exclude === "function" ? options.exclude : () => false;
  const found = [];
  const walk = (relative) => {
    let entries;
    try {
      entries = fs.readdirSync(path.join(cwd, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const child = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (exclude(options.withFileTypes ? entry : child)) continue;
      if (matchers.some((matcher) => matcher.test(child))) found.push(options.withFileTypes ? entry : child.split("/").join(path.sep));
      if (entry.isDirectory()) walk(child);
    }
  };
  walk("");
  return found;
}
