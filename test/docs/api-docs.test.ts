/**
 * Keeps the documentation honest: docs/api.md names every export of the entry points (read
 * from the built dist/, as a user's program sees them) and every `Executor` member, and every
 * relative link in README.md and docs/ leads to a file the npm package ships, and to a heading that
 * exists there. Uses the built dist/ (`npm test` builds first).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const REPOSITORY = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const API_DOC = readFileSync(path.join(REPOSITORY, "docs", "api.md"), "utf8");
const ENTRIES = { toolexec: "index", "toolexec/mcp": "mcp", "toolexec/code": "code", "toolexec/config": "config", "toolexec/plugin": "plugin", "toolexec/testing": "testing", "toolexec/serve": "serve", "toolexec/logs": "logs", "toolexec/llm": "llm", "toolexec/llm/ai-sdk": "llm/ai-sdk", "toolexec/llm/langchain": "llm/langchain" } as const;

/** Markdown without fenced code blocks: `#` lines in a shell example are not headings, `](` in code is not a link. */
const withoutCode = (markdown: string) => markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");

/** Lines that document a name: headings and table rows. */
const documentingLines = withoutCode(API_DOC)
  .split("\n")
  .filter((line) => line.startsWith("#") || line.startsWith("|"));

/** Whether `name` appears in code (`name`, `name(`, `name<`) on a heading or a table row of docs/api.md. */
const isDocumented = (name: string, prefix = "") => {
  const pattern = new RegExp("`" + (prefix + name).replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "[`(<]");
  return documentingLines.some((line) => pattern.test(line));
};

/** The names a built entry's declaration file exports, values and types alike. */
function declaredExports(entry: string): string[] {
  const declarations = readFileSync(path.join(REPOSITORY, "dist", `${entry}.d.ts`), "utf8");
  const names: string[] = [];
  for (const [, list] of declarations.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const item of list!.split(",")) {
      const name = item.trim().split(/\s+as\s+/).pop()!.replace(/^type\s+/, "").trim();
      if (name !== "") names.push(name);
    }
  }
  return names;
}

describe("docs/api.md", () => {
  for (const [specifier, entry] of Object.entries(ENTRIES)) {
    it(`documents every runtime export of ${specifier} on a heading or table row`, async () => {
      const module = (await import(path.join(REPOSITORY, "dist", `${entry}.js`))) as Record<string, unknown>;
      const missing = Object.keys(module).filter((name) => !isDocumented(name));
      expect(missing).toEqual([]);
    });

    it(`names every type export of ${specifier}`, () => {
      const missing = declaredExports(entry).filter((name) => !new RegExp("\\b" + name + "\\b").test(API_DOC));
      expect(missing).toEqual([]);
    });
  }

  it("has a heading for every Executor member", async () => {
    const { createExecutor } = (await import(path.join(REPOSITORY, "dist", "index.js"))) as typeof import("../../src/index.js");
    const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-api-docs-"));
    try {
      const executor = await createExecutor({ root, toolsConfig: false, mcpConfig: false, watch: false, logDir: false });
      const members = Object.keys(executor);
      await executor.close();
      expect(members.length).toBeGreaterThan(10);
      const headings = documentingLines.filter((line) => line.startsWith("#"));
      const missing = members.filter((member) => !headings.some((line) => line.includes("`executor." + member)));
      expect(missing).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as dashes, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutCode(markdown).split("\n")) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[`*_]/g, (mark) => (mark === "_" ? "_" : ""));
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** What `npm pack` ships besides package.json: its `files` and the README. */
const shipped = (JSON.parse(readFileSync(path.join(REPOSITORY, "package.json"), "utf8")) as { files: string[] }).files;
const isShipped = (file: string) => {
  const relative = path.relative(REPOSITORY, file).split(path.sep).join("/");
  return relative === "README.md" || relative === "package.json" || shipped.some((entry) => relative === entry || relative.startsWith(`${entry}/`));
};

const markdownFiles = [
  path.join(REPOSITORY, "README.md"),
  ...readdirSync(path.join(REPOSITORY, "docs"), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".md"))
    .map((name) => path.join(REPOSITORY, "docs", name)),
];

describe("relative links in README.md and docs/", () => {
  for (const file of markdownFiles) {
    it(`lead to shipped files and existing headings: ${path.relative(REPOSITORY, file)}`, () => {
      const markdown = readFileSync(file, "utf8");
      const problems: string[] = [];
      for (const [, target] of withoutCode(markdown).replace(/`[^`\n]*`/g, "").matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue; // https:, mailto:
        const [linkPath, anchor] = target!.split("#", 2) as [string, string | undefined];
        const resolved = linkPath === "" ? file : path.resolve(path.dirname(file), decodeURIComponent(linkPath));
        if (!existsSync(resolved)) problems.push(`${target}: no such file`);
        else if (!isShipped(resolved)) problems.push(`${target}: not in the npm package (package.json "files"); link to docs, or name the path "in the repository" without a link`);
        else if (anchor !== undefined && resolved.endsWith(".md") && !anchorsOf(readFileSync(resolved, "utf8")).has(anchor)) problems.push(`${target}: no heading with that anchor`);
      }
      expect(problems).toEqual([]);
    });
  }
});
