/**
 * The package's entries as a user's program reaches them, through package.json `exports` from a
 * separate folder: `import` and `require` (Node ≥ 20.19 loads ES modules from require) of the main
 * entry, `toolexec/plugin` and the areas' entries (`toolexec/mcp`, `toolexec/code`, `toolexec/config`),
 * and `toolexec/testing`; and the main entry's size. Uses the built dist/ (`npm test` builds first).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";

const REPOSITORY = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const user = mkdtempSync(path.join(os.tmpdir(), "toolexec-user-"));
mkdirSync(path.join(user, "node_modules"));
symlinkSync(REPOSITORY, path.join(user, "node_modules", "toolexec"), "dir");
afterAll(() => rmSync(user, { recursive: true, force: true }));

const run = (flag: "-e" | "--input-type=module", code: string) =>
  execa(process.execPath, flag === "-e" ? ["-e", code] : ["--input-type=module", "-e", code], { cwd: user, reject: false });

describe("package entries", () => {
  it("require()s the main entry and toolexec/plugin", async () => {
    const result = await run("-e", 'const t = require("toolexec"); const p = require("toolexec/plugin"); console.log(typeof t.createExecutor, typeof t.isToolexecError, typeof p.toolError, p.PLUGIN_CONTRACT_VERSION)');
    expect(result.stderr).not.toMatch(/Error/);
    expect(result.stdout).toBe("function function function 2");
  });

  it("imports the main entry, toolexec/plugin and toolexec/testing", async () => {
    const result = await run("--input-type=module", 'const t = await import("toolexec"); const p = await import("toolexec/plugin"); const s = await import("toolexec/testing").catch((error) => ({ error: error.message })); console.log(typeof t.createExecutor, typeof p.abortReasonCode, typeof s.testPluginContract)');
    expect(result.stdout).toBe("function function function");
  });

  it("require()s and imports the areas' entries: toolexec/mcp, toolexec/code, toolexec/config", async () => {
    const code = 'const m = AREA("toolexec/mcp"); const c = AREA("toolexec/code"); const f = AREA("toolexec/config"); console.log(typeof m.createFileTokenStore, typeof c.codeExecutionInputSchema, typeof f.loadProjectConfig, f.RESERVED_TOOL_NAMES.length > 0)';
    const required = await run("-e", code.replaceAll("AREA", "require"));
    expect(required.stderr).not.toMatch(/Error/);
    expect(required.stdout).toBe("function object function true");
    const imported = await run("--input-type=module", `const AREA = (name) => import(name); ${code.replaceAll('AREA("', 'await AREA("')}`);
    expect(imported.stderr).not.toMatch(/Error/);
    expect(imported.stdout).toBe("function object function true");
  });

  it("keeps internals and the areas' details off the main entry", async () => {
    const result = await run("-e", 'console.log(Object.keys(require("toolexec")).sort().join(","))');
    expect(result.stdout).toMatchInlineSnapshot(`"CODE_EXECUTION_TOOL_NAME,ConfigError,ERROR_CODES,HUMAN_INPUT_TOOL_NAME,MAX_TIMEOUT_MS,READ_RESULT_TOOL_NAME,ToolexecError,WEB_SEARCH_TOOL_NAME,createExecutor,formatConfigIssue,isConfigError,isToolexecError"`);
  });

  it("the main entry carries at most 40 names, values and types together", () => {
    const declarations = readFileSync(path.join(REPOSITORY, "dist", "index.d.ts"), "utf8");
    const names = [...declarations.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)].flatMap(([, list]) => list!.split(",").map((item) => item.trim()).filter((item) => item !== ""));
    expect(names).toContain("Executor");
    expect(names.length).toBeLessThanOrEqual(40);
  });
});
