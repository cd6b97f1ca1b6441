/** Builds real project folders in the OS temp dir for tests, and removes them afterwards. */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, chmodSync, copyFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach } from "vitest";

/** test/fixtures/tools: tiny scripts named for what they do (forever.sh, exit-2.py, ...). */
export const FIXTURE_TOOLS = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "tools");

export interface TempProject {
  root: string;
  /** Write a file relative to the root (parents created); objects are written as JSON. */
  write(relative: string, content: string | object): string;
  /** Copy fixture scripts from test/fixtures/tools into the project's tools/. */
  useFixtures(...names: string[]): void;
  path(relative: string): string;
}

const created: string[] = [];
/** Projects shared by a file's tests (made in beforeAll), removed when the file's tests end. */
const createdForFile: string[] = [];

afterEach(() => {
  for (const root of created.splice(0)) rmSync(root, { recursive: true, force: true });
});
afterAll(() => {
  for (const root of createdForFile.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A fresh project; `tools` becomes tools.json, `mcp.json` defaults to `{ "mcpServers": {} }`. */
export function createTempProject(setup: { tools?: object | string; mcp?: object | string | false; sharedByFile?: boolean } = {}): TempProject {
  const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-test-"));
  (setup.sharedByFile ? createdForFile : created).push(root);
  mkdirSync(path.join(root, "tools"));
  const project: TempProject = {
    root,
    write(relative, content) {
      const target = path.join(root, relative);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, typeof content === "string" ? content : JSON.stringify(content, null, 2));
      return target;
    },
    useFixtures(...names) {
      for (const name of names) {
        const target = path.join(root, "tools", name);
        copyFileSync(path.join(FIXTURE_TOOLS, name), target);
        chmodSync(target, 0o755);
      }
    },
    path: (relative) => path.join(root, relative),
  };
  if (setup.tools !== undefined) project.write("tools.json", setup.tools);
  if (setup.mcp !== false) project.write("mcp.json", setup.mcp ?? { mcpServers: {} });
  return project;
}

/** A tools.json tool entry with sensible defaults for tests. */
export function toolEntry(name: string, runtime: "python" | "shell" | "node", script: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    description: `Test tool ${name}`,
    runtime,
    script,
    inputSchema: { type: "object" },
    ...extra,
  };
}
