/**
 * The CLI is a front door: it reaches the library only through its public entries (src/index.ts and
 * the areas' src/mcp.ts, src/code.ts, src/config.ts, src/serve.ts), and loads them lazily, so `--help`
 * and usage errors answer without loading the library.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const CLI_SOURCE = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "src", "cli");

/** Relative specifiers a file imports (static, dynamic, `import type`, and `typeof import(...)`), comments left out. */
function relativeImports(text: string): Array<{ specifier: string; line: string }> {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  return code.split("\n").flatMap((line) => [...line.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)["'](\.[^"']*)["']/g)].map((match) => ({ specifier: match[1]!, line: line.trim() })));
}

const files = readdirSync(CLI_SOURCE).filter((name) => name.endsWith(".ts"));
const PUBLIC_ENTRIES = new Set(["../index.js", "../mcp.js", "../code.js", "../config.js", "../serve.js", "../logs.js"]);

describe("src/cli imports", () => {
  it("finds the CLI's files and their imports (the check itself works)", () => {
    expect(files).toEqual(expect.arrayContaining(["main.ts", "tools-command.ts"]));
    expect(relativeImports('import { x } from "../core/y.js";\nconst z = await import("./w.js");').map((entry) => entry.specifier)).toEqual(["../core/y.js", "./w.js"]);
  });

  it("reaches outside src/cli only through the public entries", () => {
    // The exceptions: core's edit distance and CLI invocation, leaves that import only node:, so the
    // CLI's "did you mean" and the config's use one algorithm, and its hints and the library's name
    // the command one way, without loading the library.
    const allowed = new Set([...PUBLIC_ENTRIES, "../../package.json", "../core/edit-distance.js", "../core/cli-invocation.js"]);
    const outside = files.flatMap((file) =>
      relativeImports(readFileSync(path.join(CLI_SOURCE, file), "utf8"))
        .filter(({ specifier }) => specifier.startsWith("../") && !allowed.has(specifier))
        .map(({ specifier }) => `${file} → ${specifier}`),
    );
    expect(outside).toEqual([]);
    expect(relativeImports(readFileSync(path.join(CLI_SOURCE, "..", "core", "edit-distance.ts"), "utf8"))).toEqual([]);
  });

  it("does not load a public entry before a command runs: bin.ts (the executable) and main.ts reach none through a static import", () => {
    // Static value imports only: `import type` is erased, and `import("…")` runs when a command does.
    const staticImports = (file: string) =>
      [...readFileSync(path.join(CLI_SOURCE, file), "utf8").matchAll(/^import\s+(?!type\b)[^;]*?from\s*["'](\.[^"']+)["']/gm)].map((match) => match[1]!);
    const reached = new Set<string>();
    const visit = (file: string) => {
      for (const specifier of staticImports(file)) {
        if (PUBLIC_ENTRIES.has(specifier)) reached.add(`${file} → ${specifier}`);
        else if (specifier.startsWith("./")) visit(specifier.slice(2).replace(/\.js$/, ".ts"));
      }
    };
    visit("bin.ts");
    expect([...reached]).toEqual([]);
    expect(staticImports("bin.ts")).toEqual(["./main.js"]);
    // The check can fail: format.ts imports the entry statically, and is itself loaded lazily.
    expect(staticImports("format.ts")).toContain("../index.js");
  });
});
