/**
 * The LLM entries as a user's program reaches them, through package.json `exports` from a separate
 * folder: `toolexec/llm/ai-sdk` and `toolexec/llm/langchain` load (import and require), and
 * `toolexec/llm`'s imports never reach `ai` or `@langchain/core`, optional peers a host may not have.
 * Uses the built dist/ (`npm test` builds first).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { REPOSITORY } from "../mcp/mcp-test-helpers.js";

const user = mkdtempSync(path.join(os.tmpdir(), "toolexec-llm-user-"));
mkdirSync(path.join(user, "node_modules"));
symlinkSync(REPOSITORY, path.join(user, "node_modules", "toolexec"), "dir");
afterAll(() => rmSync(user, { recursive: true, force: true }));

const run = (flag: "-e" | "--input-type=module", code: string) => execa(process.execPath, flag === "-e" ? ["-e", code] : ["--input-type=module", "-e", code], { cwd: user, reject: false });

describe("the LLM entries", () => {
  it("import and require toolexec/llm/ai-sdk and toolexec/llm/langchain", async () => {
    const imported = await run("--input-type=module", 'const a = await import("toolexec/llm/ai-sdk"); const l = await import("toolexec/llm/langchain"); console.log(typeof a.toAiSdkTools, typeof a.runAiSdkToolCalls, typeof l.toLangChainTools)');
    expect(imported.stdout).toBe("function function function");
    const required = await run("-e", 'console.log(Object.keys(require("toolexec/llm/ai-sdk")).sort().join(","), Object.keys(require("toolexec/llm/langchain")).join(","))');
    expect(required.stdout).toBe("runAiSdkToolCalls,toAiSdkTools toLangChainTools");
  });

  it("toolexec/llm reaches neither ai nor @langchain/core through its imports", () => {
    const packages = new Set<string>();
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const [, specifier] of readFileSync(file, "utf8").matchAll(/^(?:(?:import|export)\b[^;"]*?\bfrom\s*|import\s+)"([^"]+)"/gm)) {
        if (specifier!.startsWith(".")) visit(path.resolve(path.dirname(file), specifier!));
        else packages.add(specifier!.startsWith("@") ? specifier!.split("/").slice(0, 2).join("/") : specifier!.split("/")[0]!);
      }
    };
    visit(path.join(REPOSITORY, "dist", "llm.js"));
    expect(seen.size).toBeGreaterThan(10);
    expect([...packages].filter((name) => name === "ai" || name.startsWith("@langchain/"))).toEqual([]);
    visit(path.join(REPOSITORY, "dist", "llm", "ai-sdk.js"));
    visit(path.join(REPOSITORY, "dist", "llm", "langchain.js"));
    expect([...packages].filter((name) => name === "ai" || name.startsWith("@langchain/")).sort()).toEqual(["@langchain/core", "ai"]);
  });
});
