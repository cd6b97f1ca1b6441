/** The command hints print: `toolexec` when the shell finds this CLI on PATH, `npx toolexec` in a local install. */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { BIN } from "./run-cli.js";

const run = promisify(execFile);
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function freshFolder(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), "toolexec-invocation-"));
  folders.push(folder);
  return folder;
}

/** `toolexec init` in a fresh folder with `folders` first on PATH; its "Next:" lines. */
async function nextSteps(folders: string[]): Promise<string> {
  const root = freshFolder();
  const env = { ...process.env, PATH: [...folders, process.env.PATH].join(path.delimiter) };
  const { stdout } = await run(process.execPath, [BIN, "init"], { cwd: root, env });
  return stdout.slice(stdout.indexOf("Next:"));
}

function binFolder(folder: string): string {
  mkdirSync(folder, { recursive: true });
  symlinkSync(BIN, path.join(folder, "toolexec"));
  return folder;
}

describe("the CLI's own name in hints", () => {
  it("is `npx toolexec` when a shell would not find this CLI (a local install, run through npx)", async () => {
    // npx puts the project's node_modules/.bin on PATH for its run only.
    const local = binFolder(path.join(freshFolder(), "node_modules", ".bin"));
    expect(await nextSteps([local])).toMatchInlineSnapshot(`
      "Next:
        npx toolexec validate
        npx toolexec tools call greet --args '{"name": "Ada"}'

      Editor completion for tools.json: npm install --save-dev toolexec (its "$schema" points at ./node_modules/toolexec/schema/tools.schema.json).
      "
    `);
  });

  it("is `toolexec` when PATH leads to this very CLI (a global install)", async () => {
    const global = binFolder(path.join(freshFolder(), "global-bin"));
    expect(await nextSteps([global])).toMatchInlineSnapshot(`
      "Next:
        toolexec validate
        toolexec tools call greet --args '{"name": "Ada"}'

      Editor completion for tools.json: npm install --save-dev toolexec (its "$schema" points at ./node_modules/toolexec/schema/tools.schema.json).
      "
    `);
  });
});
