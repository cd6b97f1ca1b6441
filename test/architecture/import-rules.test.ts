/**
 * The two import rules of the architecture (docs/architecture.md): the core imports no plugin (nor
 * anything above it), and no plugin imports another plugin. Checked on every source file's imports.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SOURCE = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "src");

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|mts|mjs|js)$/.test(entry.name) ? [full] : [];
  });
}

/** Every relative module a file imports or re-exports (static, dynamic, and `declare module` augmentations), resolved to a path under src. */
export function importedPaths(file: string): string[] {
  // Comments are left out: examples in doc comments are not imports.
  const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bdeclare module\s+)["']([^"']+)["']/g)].map((match) => match[1]!);
  return specifiers.filter((specifier) => specifier.startsWith(".")).map((specifier) => path.relative(SOURCE, path.resolve(path.dirname(file), specifier)));
}

/** The area of a path under src: `core`, `plugins/<name>`, or the top-level file or folder. */
function areaOf(relative: string): string {
  const [first, second] = relative.split(path.sep);
  return first === "plugins" ? `plugins/${second}` : first!;
}

/** The public entries (package.json `exports`) as paths under src: `index.js`, `mcp.js`, … */
const PUBLIC_ENTRIES = new Set(
  Object.values(JSON.parse(readFileSync(path.join(SOURCE, "..", "package.json"), "utf8")).exports as Record<string, string | { import?: string }>)
    .map((target) => (typeof target === "string" ? undefined : target.import))
    .filter((target): target is string => target?.startsWith("./dist/") === true)
    .map((target) => target.slice("./dist/".length)),
);

const files = sourceFiles(SOURCE).map((file) => ({ file: path.relative(SOURCE, file), imports: importedPaths(file) }));

describe("import rules", () => {
  it("finds the source files and their imports (the check itself works)", () => {
    expect(files.length).toBeGreaterThan(50);
    const root = files.find((entry) => entry.file === "create-executor.ts")!;
    expect(root.imports.map(areaOf)).toEqual(expect.arrayContaining(["core", "plugins/mcp", "plugins/code", "plugins/script", "plugins/human"]));
  });

  it("core imports nothing outside core", () => {
    const offending = files
      .filter((entry) => areaOf(entry.file) === "core")
      .flatMap((entry) => entry.imports.filter((target) => areaOf(target) !== "core").map((target) => `${entry.file} → ${target}`));
    expect(offending).toEqual([]);
  });

  it("a plugin imports only core and itself", () => {
    const offending = files
      .filter((entry) => areaOf(entry.file).startsWith("plugins/"))
      .flatMap((entry) => entry.imports.filter((target) => ![areaOf(entry.file), "core"].includes(areaOf(target))).map((target) => `${entry.file} → ${target}`));
    expect(offending).toEqual([]);
  });

  it("the serve front door uses the public entries only (and itself)", () => {
    expect([...PUBLIC_ENTRIES]).toEqual(expect.arrayContaining(["index.js", "mcp.js", "code.js", "config.js"]));
    const offending = files
      .filter((entry) => areaOf(entry.file) === "serve")
      .flatMap((entry) => entry.imports.filter((target) => areaOf(target) !== "serve" && !PUBLIC_ENTRIES.has(target)).map((target) => `${entry.file} → ${target}`));
    expect(files.some((entry) => areaOf(entry.file) === "serve")).toBe(true);
    expect(offending).toEqual([]);
  });

  it("the LLM front door uses the public entries only (and itself)", () => {
    const offending = files
      .filter((entry) => areaOf(entry.file) === "llm" || entry.file === "llm.ts")
      .flatMap((entry) => entry.imports.filter((target) => areaOf(target) !== "llm" && !PUBLIC_ENTRIES.has(target)).map((target) => `${entry.file} → ${target}`));
    expect(files.filter((entry) => areaOf(entry.file) === "llm").length).toBeGreaterThan(5);
    expect(offending).toEqual([]);
  });

  it("would catch a violation (the rules are not vacuous)", () => {
    const fake = path.join(SOURCE, "core", "executor", "x.ts");
    expect(areaOf(path.relative(SOURCE, path.resolve(path.dirname(fake), "../../plugins/mcp/mcp-plugin.js")))).toBe("plugins/mcp");
    expect(areaOf(path.relative(SOURCE, path.resolve(path.join(SOURCE, "plugins", "code", "declarations"), "../../human/human-input-plugin.js")))).toBe("plugins/human");
  });
});
