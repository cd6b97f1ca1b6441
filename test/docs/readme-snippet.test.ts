/**
 * The README's first TypeScript snippet, run unchanged the way a newcomer runs it: the package as
 * `npm pack` makes it (from the built dist/), installed into a fresh app, `npx toolexec init`, then
 * the snippet. Slow (an npm install: its dependencies come from npm's cache or the registry), so
 * it has its own file.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, expect, test } from "vitest";

const REPOSITORY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const INSTALL_TIMEOUT_MS = 170_000;

let folder: string;
let app: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), "toolexec-readme-"));
  app = path.join(folder, "app");
  const packed = await execa("npm", ["pack", "--json", "--pack-destination", folder], { cwd: REPOSITORY });
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
  await execa("mkdir", [app]);
  await writeFile(path.join(app, "package.json"), `${JSON.stringify({ name: "readme-app", private: true, type: "module" })}\n`);
  await execa("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", path.join(folder, filename)], { cwd: app });
}, INSTALL_TIMEOUT_MS);

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** The first ```ts block of README.md, as written. */
async function readmeSnippet(): Promise<string> {
  const readme = await readFile(path.join(REPOSITORY, "README.md"), "utf8");
  const match = /```ts\n([\s\S]*?)```/.exec(readme);
  if (!match) throw new Error("README.md has no ```ts block");
  return match[1]!;
}

test("the README's snippet runs unchanged in a fresh app after `npx toolexec init`", async () => {
  const init = await execa("npx", ["--no-install", "toolexec", "init"], { cwd: app });
  expect(init.exitCode).toBe(0);
  // A bare `toolexec` is not on the shell's PATH in a local install: the hints say how to run it.
  expect(init.stdout).toContain("\n  npx toolexec validate\n");
  // The snippet uses no TypeScript-only syntax, so Node runs it as an ES module.
  await writeFile(path.join(app, "readme.mjs"), await readmeSnippet());
  const run = await execa("node", ["readme.mjs"], { cwd: app, reject: false, timeout: 30_000 });
  expect({ exitCode: run.exitCode, stderr: run.stderr }).toEqual({ exitCode: 0, stderr: "" });
  expect(run.stdout).toContain("{ words: 4, lines: 1, characters: 19 }");
  // The tool:end listener saw the call: "word_count <durationMs>".
  expect(run.stdout).toMatch(/^word_count \d+(\.\d+)?$/m);
}, 60_000);
