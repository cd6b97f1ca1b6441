/** What `npm pack` ships: no source map pointing at a source it does not ship, and every package path the docs name. */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { beforeAll, expect, it } from "vitest";

const REPOSITORY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
let shipped: Set<string>;

beforeAll(async () => {
  const { stdout } = await execa("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: REPOSITORY });
  shipped = new Set((JSON.parse(stdout) as [{ files: { path: string }[] }])[0].files.map((file) => file.path));
}, 60_000);

it("ships no source map whose sources are missing from the package", () => {
  const dangling = [...shipped]
    .filter((file) => file.endsWith(".map"))
    .flatMap((file) => (JSON.parse(readFileSync(path.join(REPOSITORY, file), "utf8")) as { sources: string[] }).sources.map((source) => path.posix.join(path.posix.dirname(file), source)))
    .filter((source) => !shipped.has(source));
  expect(dangling.length, `e.g. ${dangling.slice(0, 3).join(", ")}`).toBe(0);
});

it("every `node_modules/toolexec/…` path in the shipped docs is a file the package holds", () => {
  const named = readdirSync(path.join(REPOSITORY, "docs"))
    .filter((file) => file.endsWith(".md"))
    .flatMap((file) => [...readFileSync(path.join(REPOSITORY, "docs", file), "utf8").matchAll(/node_modules\/toolexec\/([\w./-]+\.\w+)/g)].map((match) => ({ file, path: match[1]! })));
  expect(named.length).toBeGreaterThan(0);
  expect(named.filter((reference) => !shipped.has(reference.path))).toEqual([]);
});

it("the shipped docs never send a user to a `src/` file the package does not hold", () => {
  const copyFromSource = readdirSync(path.join(REPOSITORY, "docs"))
    .filter((file) => file.endsWith(".md"))
    .filter((file) => /copy `src\//.test(readFileSync(path.join(REPOSITORY, "docs", file), "utf8")));
  expect(copyFromSource).toEqual([]);
});
