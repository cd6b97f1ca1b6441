/**
 * The fast checks that let a well-formed project start without zod (issue 30) may only ever vouch
 * where zod accepts: tools.json's `defaults` and `python`, each built-in section, mcp.json, and the
 * options of `createExecutor`. Each is held to its zod schema key by key (a key the schema gains
 * fails here until its check exists) and over values of every kind at every bound; and a whole
 * tools.json with every built-in key reads the same with and without them.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULTS_CHECKS, isWellFormedToolsConfig, PROJECT_PYTHON_CHECKS } from "../../src/core/config/is-well-formed-tools-config.js";
import { readJsonConfig } from "../../src/core/config/read-json-config.js";
import { objectOf, type Check } from "../../src/core/config/well-formed-checks.js";
import { isWellFormedOptions } from "../../src/core/executor/well-formed-core-options.js";
import { toolsConfigSchema, projectPythonSchema } from "../../src/core/config/tools-config-schema.js";
import { collectSections } from "../../src/core/config/config-sections.js";
import { loadSectionSchemas } from "../../src/core/config/lazy-section-schema.js";
import { OPTION_CHECKS } from "../../src/executor-options.js";
import { checkAllOptions, optionsSchema } from "../../src/executor-options-schema.js";
import { builtInToolsConfigSchema } from "../../src/load-project-config.js";
import { codeExecutionConfigSchema } from "../../src/plugins/code/config/code-execution-config-schema.js";
import { CODE_EXECUTION_CHECKS } from "../../src/plugins/code/config/well-formed-code-execution.js";
import { isWellFormedMcpConfig } from "../../src/plugins/mcp/config/mcp-config-section.js";
import { mcpConfigSchema } from "../../src/plugins/mcp/config/mcp-config-schema.js";
import { TOOL_SEARCH_CHECKS } from "../../src/plugins/search/config/tool-search-config.js";
import { toolSearchConfigSchema } from "../../src/plugins/search/config/tool-search-config-schema.js";
import { webSearchConfigSchema } from "../../src/plugins/web-search/config/web-search-config-schema.js";
import { WEB_SEARCH_CHECKS, WEB_SEARCH_REQUIRED_KEYS } from "../../src/plugins/web-search/config/well-formed-web-search.js";
import { findFastPathOverreach } from "../helpers/fast-path-overreach.js";
import { CORPUS } from "./corpus-cases.js";

interface Schema {
  safeParse(value: unknown): { success: boolean; error?: { issues: Array<{ message: string }> } };
}

/** Values of every kind and at every bound the schemas draw. */
const VALUES: unknown[] = [
  undefined, true, false, null, 0, -0, 1, -1, 0.5, 1.5, 2, 10, 11, 20, 21, 31, 32, 33, 63, 64, 65, 100, 101, 256, 257, 600_000, 600_001, 1000, 1001,
  2_147_000_000, 2_147_000_001, 2 ** 31 - 1, 2 ** 31, 2 ** 53 - 1, 2 ** 53, 1e300, Number.NaN, Number.POSITIVE_INFINITY,
  "", " ", "x", "uv", "pip", "brave", "tavily", "searxng", "off", "moderate", "strict", "eager", "lazy", "1d", "7s", "5000", "true", "requirements.txt",
  [], [""], ["a"], ["a", 1], [null], [[]], {}, { a: "b" }, { a: 1 }, { maxChars: 1 }, { maxChars: 0 }, { requirements: "r.txt" }, { requirements: [] }, { unknown: true },
  () => undefined, /x/,
];

/** A valid base with each key removed, and each key set to each value. */
function* variants(base: Record<string, unknown>, keys: Iterable<string>, values: readonly unknown[] = VALUES): Generator<unknown> {
  yield base;
  for (const key of keys) {
    const { [key]: _removed, ...without } = base;
    yield without;
    for (const value of values) yield { ...base, [key]: value };
  }
  yield { ...base, unknownKey: true };
  yield* values;
}

function expectSound(candidates: Iterable<unknown>, vouches: Check, schema: Schema, atLeast: number) {
  const { vouched, wrong } = findFastPathOverreach(candidates, vouches, (value) => {
    const parsed = schema.safeParse(value);
    return parsed.success ? undefined : parsed.error!.issues.map((issue) => issue.message).join("; ");
  });
  expect(wrong).toEqual([]);
  expect(vouched).toBeGreaterThanOrEqual(atLeast);
}

const shapeKeys = (schema: unknown) => Object.keys((schema as { shape: object }).shape).sort();
const unwrap = (schema: unknown) => (schema as { unwrap(): Schema }).unwrap();

const OBJECT_CHECKS: Array<{ name: string; checks: ReadonlyMap<string, Check>; schema: Schema; base: Record<string, unknown>; required?: readonly string[] }> = [
  { name: "tools.json's defaults", checks: DEFAULTS_CHECKS, schema: unwrap(toolsConfigSchema.shape.defaults), base: { timeoutMs: 5_000, env: { A: "b" }, results: { maxChars: 10 } } },
  { name: "tools.json's python", checks: PROJECT_PYTHON_CHECKS, schema: projectPythonSchema, base: { requirements: ["a==1"], installer: "uv", maxWorkers: 2 } },
  { name: "codeExecution", checks: CODE_EXECUTION_CHECKS, schema: codeExecutionConfigSchema, base: { enabled: true, timeoutMs: 30_000, allowedServers: ["local"] } },
  { name: "toolSearch", checks: TOOL_SEARCH_CHECKS, schema: toolSearchConfigSchema, base: { offerTool: true, semanticWeight: 0.5 } },
  { name: "webSearch", checks: WEB_SEARCH_CHECKS, schema: webSearchConfigSchema, base: { provider: "searxng", url: "http://127.0.0.1:9" }, required: WEB_SEARCH_REQUIRED_KEYS },
];

describe("the fast checks of the built-in keys", () => {
  it.each(OBJECT_CHECKS)("$name: has a rule for every key of its schema, and never vouches for a value zod refuses", ({ checks, schema, base, required }) => {
    expect([...checks.keys()].sort()).toEqual(shapeKeys(schema));
    expectSound(variants(base, checks.keys()), objectOf(checks, required), schema, 20);
  });

  it("mcp.json: vouches only for a file without servers that zod accepts", () => {
    const files = [...variants({ mcpServers: {} }, ["mcpServers", "servers", "$schema", "trust"]), { servers: {} }, { $schema: "x", mcpServers: {} }, { mcpServers: { a: { command: "x" } } }];
    expectSound(files, isWellFormedMcpConfig, mcpConfigSchema, 4);
  });
});

describe("the fast check of createExecutor's options", () => {
  it("has a rule for every option, and never vouches for options zod refuses", () => {
    expect([...OPTION_CHECKS.keys()].sort()).toEqual(shapeKeys(optionsSchema));
    const base = { root: "/project", watch: false, logDir: false, codeExecution: { enabled: true }, toolSearch: { offerTool: true }, mcp: { startupTimeoutMs: 0 } };
    const refusal = (options: unknown) => {
      try {
        checkAllOptions(options);
        return undefined;
      } catch (error) {
        return (error as Error).message;
      }
    };
    const { vouched, wrong } = findFastPathOverreach(variants(base, OPTION_CHECKS.keys()), (options) => isWellFormedOptions(options, OPTION_CHECKS), refusal);
    expect(wrong).toEqual([]);
    expect(vouched).toBeGreaterThan(100);
  });
});

describe("tools.json with the built-in plugins' keys", () => {
  it("reports exactly what zod alone reports for every corpus file, with and without the fast checks", async () => {
    const { lazyPythonPlugin } = await import("../../src/plugins/python/lazy-python-plugin.js");
    const { codePlugin } = await import("../../src/plugins/code/code-plugin.js");
    const { searchPlugin } = await import("../../src/plugins/search/search-plugin.js");
    const { webSearchPlugin } = await import("../../src/plugins/web-search/web-search-plugin.js");
    const sections = collectSections([lazyPythonPlugin(), searchPlugin(), codePlugin(), webSearchPlugin()], "tools.json");
    await loadSectionSchemas(sections);
    const schema = await builtInToolsConfigSchema();
    for (const file of readdirSync(path.join(CORPUS, "tools")).sort()) {
      const bytes = readFileSync(path.join(CORPUS, "tools", file));
      const read = (isWellFormed?: (value: unknown) => boolean) => readJsonConfig("/nowhere/tools.json", "tools.json", schema, "create it", bytes, isWellFormed);
      const [fast, strict] = await Promise.all([read((value) => isWellFormedToolsConfig(value, sections)), read()]);
      expect({ status: fast.status, issues: "issues" in fast ? fast.issues : [] }, file).toEqual({ status: strict.status, issues: "issues" in strict ? strict.issues : [] });
    }
  });
});
