/** The build ships the Python worker next to the compiled plugin, where the plugin looks for it. */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const REPOSITORY = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const SOURCE = path.join(REPOSITORY, "src", "plugins", "python", "worker");
const BUILT = path.join(REPOSITORY, "dist", "plugins", "python", "worker");

it.runIf(existsSync(path.join(REPOSITORY, "dist", "plugins", "python")))("copies every worker module into dist/ unchanged", () => {
  const modules = readdirSync(SOURCE).filter((name) => name.endsWith(".py"));
  expect(modules).toContain("toolexec_worker.py");
  for (const name of modules) expect(readFileSync(path.join(BUILT, name), "utf8")).toBe(readFileSync(path.join(SOURCE, name), "utf8"));
});
