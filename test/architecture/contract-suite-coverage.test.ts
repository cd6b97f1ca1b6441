/**
 * Every built-in plugin runs the shipped contract suite: each folder under src/plugins has a test
 * file calling `testPluginContract` with the plugin's name (the python plugin's labels its variants).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const REPOSITORY = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

function testFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "fixtures" ? [] : testFiles(full);
    return entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

/** The names the test files pass to testPluginContract, as written (string literals, and python's variant labels). */
const suiteNames = new Set(
  testFiles(path.join(REPOSITORY, "test")).flatMap((file) => {
    const text = readFileSync(file, "utf8");
    if (!text.includes("testPluginContract")) return [];
    const direct = [...text.matchAll(/testPluginContract(?:<[^>]*>)?\(\s*"([^"]+)"/g)].map((match) => match[1]!);
    const labels = text.includes("variant.label") ? [...text.matchAll(/label:\s*"([^"]+)"/g)].map((match) => match[1]!) : [];
    return [...direct, ...labels];
  }),
);

describe("the contract suite", () => {
  it("runs for every built-in plugin", () => {
    const plugins = readdirSync(path.join(REPOSITORY, "src", "plugins"), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(plugins).toEqual(expect.arrayContaining(["script", "python", "mcp", "code", "human", "search", "web-search"]));
    expect(plugins.filter((name) => !suiteNames.has(name))).toEqual([]);
  });
});
