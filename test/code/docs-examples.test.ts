/**
 * The examples of docs/code-execution.md run as documented: each file in docs/examples/code is
 * embedded in the doc verbatim, and both executor.executeCode and the built CLI return the value the
 * doc shows. Runs against the repository's own tools.json and its example tools.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { TOOLEXEC_BIN } from "../helpers/toolexec-bin.mjs";
import { silentLogger } from "./code-test-helpers.js";

const REPOSITORY_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const DOC = path.join(REPOSITORY_ROOT, "docs", "code-execution.md");
const EXAMPLES = path.join(REPOSITORY_ROOT, "docs", "examples", "code");
const BIN = TOOLEXEC_BIN;
/** CLI runs at once: each is a Node process plus a runtime process, on a 2-core machine. */
const CLI_CONCURRENCY = 3;

interface DocumentedExample {
  code: string;
  value: unknown;
}

type Block = { kind: "text"; text: string; line: number } | { kind: "fence"; language: string; body: string; line: number };

/** The doc's `## Examples` section as text lines and fenced blocks, with 1-based line numbers. */
function readExamplesSection(markdown: string): Block[] {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => line.trim() === "## Examples");
  if (start === -1) throw new Error(`${DOC} has no "## Examples" section`);
  const blocks: Block[] = [];
  for (let index = start + 1; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.startsWith("## ")) break;
    const fence = /^```(\w*)\s*$/.exec(line);
    if (!fence) {
      blocks.push({ kind: "text", text: line, line: index + 1 });
      continue;
    }
    const end = lines.findIndex((candidate, at) => at > index && candidate.trimEnd() === "```");
    if (end === -1) throw new Error(`Unclosed code fence at ${DOC}:${index + 1}`);
    blocks.push({ kind: "fence", language: fence[1]!, body: lines.slice(index + 1, end).join("\n"), line: index + 1 });
    index = end;
  }
  return blocks;
}

/**
 * Each example in the doc: a line naming `examples/code/<name>.js`, then a ```js block with its code,
 * then a ```json block with its value, before the next example starts.
 */
function parseDocumentedExamples(markdown: string): Map<string, DocumentedExample> {
  const blocks = readExamplesSection(markdown);
  const examples = new Map<string, DocumentedExample>();
  for (let index = 0; index < blocks.length; index++) {
    const block = blocks[index]!;
    if (block.kind !== "text") continue;
    const name = /examples\/code\/([\w-]+\.js)/.exec(block.text)?.[1];
    if (name === undefined) continue;
    const fences = blocks.slice(index + 1).filter((candidate) => candidate.kind === "fence");
    const [code, value] = fences;
    const where = `${DOC}:${block.line} (${name})`;
    if (code?.kind !== "fence" || code.language !== "js") throw new Error(`Expected a \`\`\`js block after ${where}`);
    if (value?.kind !== "fence" || value.language !== "json") throw new Error(`Expected a \`\`\`json block after the code of ${where}`);
    const between = blocks.slice(index + 1).filter((candidate) => candidate.line < value.line);
    if (between.some((candidate) => candidate.kind === "text" && /examples\/code\/[\w-]+\.js/.test(candidate.text))) {
      throw new Error(`Another example starts before the output of ${where}`);
    }
    if (examples.has(name)) throw new Error(`${name} is documented twice (again at ${where})`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(value.body);
    } catch (error) {
      throw new Error(`The output of ${where} is not JSON: ${(error as Error).message}`);
    }
    examples.set(name, { code: code.body, value: parsed });
  }
  return examples;
}

const files = readdirSync(EXAMPLES)
  .filter((file) => file.endsWith(".js"))
  .sort();
const documented = parseDocumentedExamples(readFileSync(DOC, "utf8"));

function documentedExample(file: string): DocumentedExample {
  const example = documented.get(file);
  if (example === undefined) throw new Error(`docs/examples/code/${file} is not in the Examples section of docs/code-execution.md`);
  return example;
}

interface CliRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

function runCli(...args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: REPOSITORY_ROOT, timeout: 30_000 }, (error, stdout, stderr) => {
      const exitCode = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
      resolve({ exitCode, stdout, stderr });
    });
  });
}

/** Start every CLI run up front, a few at a time; each test awaits its own. */
function startCliRuns(names: string[]): Map<string, Promise<CliRun>> {
  const runs = new Map<string, Promise<CliRun>>();
  const chain: Array<Promise<unknown>> = Array.from({ length: CLI_CONCURRENCY }, () => Promise.resolve());
  names.forEach((name, index) => {
    const slot = index % CLI_CONCURRENCY;
    const run = chain[slot]!.then(() => runCli("code", "exec", "--file", path.join("docs", "examples", "code", name), "--json", "--root", REPOSITORY_ROOT));
    chain[slot] = run;
    runs.set(name, run);
  });
  return runs;
}

let executor: Executor;
let cliRuns: Map<string, Promise<CliRun>>;

beforeAll(async () => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` first (npm test does)`);
  cliRuns = startCliRuns(files);
  executor = await createExecutor({ root: REPOSITORY_ROOT, watch: false, logDir: false, logger: silentLogger, codeExecution: { enabled: true } });
});
afterAll(async () => {
  await executor?.close();
  await Promise.all(cliRuns?.values() ?? []);
});

describe("docs/code-execution.md examples", () => {
  it("has at least five example files, each documented, and documents no other", () => {
    expect(files.length).toBeGreaterThanOrEqual(5);
    expect([...documented.keys()].sort()).toEqual(files);
  });

  describe.each(files)("%s", (file) => {
    it("is embedded in the doc verbatim", () => {
      const source = readFileSync(path.join(EXAMPLES, file), "utf8");
      expect(documentedExample(file).code).toBe(source.trimEnd());
    });

    it("returns the documented value through executor.executeCode", async () => {
      const { code, value } = documentedExample(file);
      const result = await executor.executeCode({ code });
      if (!result.ok) throw new Error(`${file} failed: ${result.error.code}: ${result.error.message}\n${result.error.stack ?? ""}`);
      expect(result.value).toEqual(value);
      expect(result.toolCalls.length).toBeGreaterThan(0);
    });

    it("returns the documented value through `toolexec code exec --file`", async () => {
      const run = await cliRuns.get(file)!;
      expect(run.exitCode, run.stderr).toBe(0);
      const result = JSON.parse(run.stdout) as { ok: boolean; value: unknown };
      expect(result).toMatchObject({ ok: true, executionId: expect.any(String) });
      expect(result.value).toEqual(documentedExample(file).value);
    });
  });

  it("exits non-zero with the message, stack and execution id when the script fails", async () => {
    const code = 'const summary = await tools.local.csv_summary({ path: "examples/sales.csv" });\nthrow new Error(`rejected ${summary.rows} rows`);\n';
    const run = await runCli("code", "exec", "--code", code, "--root", REPOSITORY_ROOT);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^error RUNTIME_ERROR: Error: rejected 10 rows\n {4}at code\.js:2:7\n/);
    expect(run.stderr).toMatch(/tool calls \(1\):\n {2}local\.csv_summary {2}[\d.]+ ms {2}ok\n/);
    expect(run.stderr).toMatch(/execution id: [0-9a-f-]{36} \(/);
  });
});
