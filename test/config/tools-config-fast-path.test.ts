/**
 * tools.json's fast shape check (`isWellFormedToolsConfig`) may only ever say "well formed" where
 * zod agrees; when it says "ask", zod checks the whole file and words every problem, so a file's
 * issues are the same with and without it. Both are held here: every key of a tool entry with many
 * values, and every tools.json of the bad-config corpus, through both paths.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  isWellFormedToolEntry,
  isWellFormedToolsConfig,
  TOOL_ENTRY_CHECKS,
  TOOL_ENTRY_REQUIRED_KEYS,
} from "../../src/core/config/is-well-formed-tools-config.js";
import { readJsonConfig } from "../../src/core/config/read-json-config.js";
import { toolEntrySchema, toolsConfigSchema } from "../../src/core/config/tools-config-schema.js";
import { findFastPathOverreach } from "../helpers/fast-path-overreach.js";
import { CORPUS } from "./corpus-cases.js";

const GOOD_ENTRY = {
  name: "report_export_1",
  title: "Export",
  description: "Exports report records matching a query.",
  runtime: "python",
  script: "report_export_1.py",
  args: ["--fast"],
  interpreter: ".venv/bin/python",
  inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
  outputSchema: { type: "object" },
  annotations: { title: "Export", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  timeoutMs: 5_000,
  parallel: true,
  env: { TOKEN: "${TOKEN:-none}" },
  cwd: "work",
  maxOutputBytes: 1_000_000,
};

/** Values of every kind and at every bound the entry schema draws. */
const VALUES: unknown[] = [
  true, false, null, 0, -0, 1, -1, 1.5, 63, 64, 65, 2 ** 31 - 1, 2 ** 31, 2 ** 53 - 1, 2 ** 53, 1e300, -1e300,
  "", " ", "x", "a b", "a__b", "a".repeat(128), "a".repeat(129), "python", "shell", "node", "ruby", "Python",
  "tools.py:run", "tools.py:1run", "tools.py", "dir/tools.py:run", "a.py:b:c", "5000", "true", "\u0000",
  [], [""], ["a"], ["a", 1], [null], [[]], {}, { a: "b" }, { a: 1 }, { a: null }, { title: "x" }, { readOnlyHint: true },
  { readOnlyHint: "yes" }, { title: 1 }, { unknown: true }, { type: "object" }, [{ type: "object" }],
];

/** Entries from JSON text too: `__proto__` keys exist only there, as own data properties. */
const JSON_ENTRIES = [
  `{"name":"a","description":"A","runtime":"shell","script":"a.sh","inputSchema":{},"__proto__":{}}`,
  `{"name":"a","description":"A","runtime":"shell","script":"a.sh","inputSchema":{},"env":{"__proto__":"x"}}`,
  `{"name":"a","description":"A","runtime":"shell","script":"a.sh","inputSchema":{},"env":{"__proto__":5}}`,
  `{"name":"a","description":"A","runtime":"shell","script":"a.sh","inputSchema":{"__proto__":{}}}`,
  `{"name":"a","description":"A","runtime":"shell","script":"a.sh","inputSchema":{},"annotations":{"__proto__":true}}`,
];

/** The good entry with one key changed (or removed), and entries that are not objects at all. */
function* candidateEntries(): Generator<unknown> {
  for (const key of Object.keys(toolEntrySchema.shape)) {
    const { [key]: _removed, ...without } = GOOD_ENTRY as Record<string, unknown>;
    yield without;
    for (const value of VALUES) yield { ...GOOD_ENTRY, [key]: value };
  }
  yield { ...GOOD_ENTRY, unknownKey: true };
  yield { ...GOOD_ENTRY, function: "tools.py:run" };
  yield { name: "only_a_name" };
  yield* VALUES;
  for (const text of JSON_ENTRIES) yield JSON.parse(text);
}

describe("isWellFormedToolEntry", () => {
  it("has a rule for every key of the entry schema, and requires what it requires", () => {
    const shape = toolEntrySchema.shape as Record<string, { safeParse(value: unknown): { success: boolean } }>;
    expect([...TOOL_ENTRY_CHECKS.keys()].sort()).toEqual(Object.keys(shape).sort());
    const required = Object.keys(shape).filter((key) => !shape[key]!.safeParse(undefined).success);
    expect([...TOOL_ENTRY_REQUIRED_KEYS].sort()).toEqual(required.sort());
  });

  it("never vouches for an entry zod refuses", () => {
    const { vouched, wrong } = findFastPathOverreach(candidateEntries(), isWellFormedToolEntry, (entry) => {
      const parsed = toolEntrySchema.safeParse(entry);
      return parsed.success ? undefined : parsed.error.issues.map((issue) => issue.message).join("; ");
    });
    expect(wrong).toEqual([]);
    expect(vouched).toBeGreaterThan(50);
  });

  it("vouches for the whole file only when zod accepts the rest of it", () => {
    const tools = [GOOD_ENTRY];
    expect(isWellFormedToolsConfig({ tools })).toBe(true);
    expect(isWellFormedToolsConfig({ tools, defaults: { timeoutMs: 1_000 } })).toBe(true);
    expect(isWellFormedToolsConfig({ tools, defaults: { timeoutMs: "1000" } })).toBe(false);
    expect(isWellFormedToolsConfig({ tools, unknownKey: 1 })).toBe(false);
    expect(isWellFormedToolsConfig({ tools: {} })).toBe(false);
    expect(isWellFormedToolsConfig({})).toBe(false);
    // A hole in the array is no entry: zod refuses it.
    expect(isWellFormedToolsConfig({ tools: [GOOD_ENTRY, , GOOD_ENTRY] })).toBe(false);
  });
});

/** The same bytes read with the fast path and with zod alone. */
async function readBothWays(bytes: Uint8Array) {
  const read = (isWellFormed?: (value: unknown) => boolean) =>
    readJsonConfig("/nowhere/tools.json", "tools.json", toolsConfigSchema, "create it", bytes, isWellFormed);
  const [fast, strict] = await Promise.all([read(isWellFormedToolsConfig), read()]);
  const issuesOf = (result: Awaited<ReturnType<typeof read>>) => ("issues" in result ? result.issues : []);
  return { fast: { status: fast.status, issues: issuesOf(fast) }, strict: { status: strict.status, issues: issuesOf(strict) } };
}

describe("tools.json read with the fast path", () => {
  const corpusFiles = readdirSync(path.join(CORPUS, "tools")).sort();

  it.each(corpusFiles)("reports exactly what zod alone reports for corpus file %s", async (file) => {
    const { fast, strict } = await readBothWays(readFileSync(path.join(CORPUS, "tools", file)));
    expect(fast).toEqual(strict);
  });

  it("reports exactly what zod alone reports for each faulty entry among good ones", async () => {
    const good = (index: number) => ({ ...GOOD_ENTRY, name: `tool_${index}` });
    let faulty = 0;
    for (const entry of candidateEntries()) {
      const text = JSON.stringify({ tools: [good(0), entry, good(2)] }, null, 2);
      const { fast, strict } = await readBothWays(new TextEncoder().encode(text));
      expect(fast, text).toEqual(strict);
      if (strict.status === "invalid") faulty++;
    }
    expect(faulty).toBeGreaterThan(500);
  });
});
