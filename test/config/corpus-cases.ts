/**
 * The bad-config corpus (test/config/corpus/, see its README) as cases: each one turns a good
 * project into a bad one and says which file is at fault. A few cases too big to commit are
 * generated here.
 */
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TempProject } from "../helpers/temp-project.js";

export const CORPUS = path.join(path.dirname(fileURLToPath(import.meta.url)), "corpus");

/** The good config every case starts from, and goes back to. */
export const GOOD_TOOLS = {
  tools: [{ name: "echo", description: "Echoes its arguments", runtime: "shell", script: "echo.sh", inputSchema: { type: "object" } }],
};
export const GOOD_MCP = { mcpServers: {} };

let replacements = 0;

/**
 * Write `target` whole in one step (a temp file renamed over it), as editors save: a watcher never
 * reads it truncated, half-written.
 */
export function replaceFile(target: string, content: string | Uint8Array): void {
  const temporary = `${target}.corpus-${process.pid}-${++replacements}.tmp`;
  writeFileSync(temporary, content);
  renameSync(temporary, target);
}

export interface CorpusCase {
  name: string;
  /** The file the problem is reported in (both, for a case that breaks both). */
  faultyFiles: Array<"tools.json" | "mcp.json">;
  /** Make `project` bad; `outside` is a folder outside it (with tools/echo.sh). Returns the undo of links and folders. */
  apply(project: TempProject, outside: TempProject): () => void;
  /** The good tool's call is refused (not served by the last good config) while the case is applied. */
  refusesCalls?: boolean;
  /** Bound for loading it, in ms. */
  deadlineMs?: number;
}

function fileCases(folder: "tools" | "mcp"): CorpusCase[] {
  const target = folder === "tools" ? "tools.json" : "mcp.json";
  return readdirSync(path.join(CORPUS, folder))
    .sort()
    .map((file) => ({
      name: `${folder}/${file}`,
      faultyFiles: [target],
      apply: (project) => {
        replaceFile(project.path(target), readFileSync(path.join(CORPUS, folder, file)));
        return () => {};
      },
    }));
}

/** A folder case: its config files, then the links named in links.json (`<outside>` is the outside folder). */
function projectCases(): CorpusCase[] {
  return readdirSync(path.join(CORPUS, "projects"))
    .sort()
    .map((name) => {
      const folder = path.join(CORPUS, "projects", name);
      const files = readdirSync(folder).filter((file): file is "tools.json" | "mcp.json" => file === "tools.json" || file === "mcp.json");
      const links = JSON.parse(readFileSync(path.join(folder, "links.json"), "utf8")) as Record<string, string>;
      return {
        name: `projects/${name}`,
        faultyFiles: files,
        refusesCalls: Object.keys(links).includes("tools"),
        apply: (project, outside) => {
          const undo: Array<() => void> = [];
          for (const [at, target] of Object.entries(links)) {
            const place = project.path(at);
            rmSync(`${place}.saved`, { recursive: true, force: true });
            try {
              renameSync(place, `${place}.saved`);
              undo.push(() => renameSync(`${place}.saved`, place));
            } catch {
              // Nothing there yet: the link is new.
            }
            mkdirSync(path.dirname(place), { recursive: true });
            symlinkSync(target.replace("<outside>", outside.root), place);
            undo.unshift(() => rmSync(place, { force: true }));
          }
          // Links first: the config write is what the watcher reloads on.
          for (const file of files) replaceFile(project.path(file), readFileSync(path.join(folder, file)));
          return () => undo.forEach((step) => step());
        },
      };
    });
}

/** Cases too large to commit. */
function generatedCases(): CorpusCase[] {
  const many = (count: number) => Array.from({ length: count }, (_, index) => ({ ...GOOD_TOOLS.tools[0]!, name: `tool_${index}` }));
  const cases: CorpusCase[] = [
    {
      name: "generated/huge-file-10000-tools-last-one-bad",
      faultyFiles: ["tools.json"],
      deadlineMs: 20_000,
      apply: (project) => {
        replaceFile(project.path("tools.json"), JSON.stringify({ tools: [...many(10_000), { ...GOOD_TOOLS.tools[0], name: "last", timeoutMs: "soon" }] }));
        return () => {};
      },
    },
    {
      name: "generated/ten-megabytes-of-whitespace-then-a-wrong-type",
      faultyFiles: ["tools.json"],
      apply: (project) => {
        replaceFile(project.path("tools.json"), `${" ".repeat(10 * 1024 * 1024)}{ "tools": 5 }`);
        return () => {};
      },
    },
    {
      name: "generated/one-million-nested-arrays",
      faultyFiles: ["tools.json"],
      apply: (project) => {
        replaceFile(project.path("tools.json"), `{ "tools": ${"[".repeat(1_000_000)}${"]".repeat(1_000_000)} }`);
        return () => {};
      },
    },
    {
      name: "generated/one-million-unclosed-objects",
      faultyFiles: ["mcp.json"],
      apply: (project) => {
        replaceFile(project.path("mcp.json"), `{ "mcpServers": ${'{"a":'.repeat(1_000_000)}`);
        return () => {};
      },
    },
  ];
  return cases;
}

/** Every case that must be refused. */
export const REFUSED_CASES: CorpusCase[] = [...fileCases("tools"), ...fileCases("mcp"), ...projectCases(), ...generatedCases()];

/** Files that must load, in bounded time (valid but hostile: catastrophic patterns, a BOM). */
export const ACCEPTED_FILES = readdirSync(path.join(CORPUS, "accepted")).sort();
