/**
 * The main entry and `createExecutor` load only what the project uses (issue 30): importing
 * `toolexec` loads no dependency at all; an executor whose mcp.json names no server never loads the
 * MCP SDK, one whose tools have not run never loads execa, and nothing loads the OpenTelemetry API
 * until something registers with it. Checked on the build (dist/), in a
 * fresh process that records every package it loads (test/fixtures/loaded-packages.mjs).
 */
import { execFile } from "node:child_process";
import { cpSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { fixtureServer } from "../cli/run-cli.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { IDLE_BUILD_DELAY_MS } from "../../src/plugins/search/background-indexer.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DIST = path.join(HERE, "..", "..", "dist");
const RECORDER = path.join(HERE, "..", "fixtures", "loaded-packages.mjs");
const REPOSITORY = path.join(HERE, "..", "..");
const LATE_TRACING = path.join(HERE, "..", "fixtures", "late-tracing.mjs");

/** The last line a fresh `node script DIST ...args` printed, as JSON. */
function runFixture<T>(script: string, ...args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [script, DIST, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split("\n").at(-1)!) as T);
    });
  });
}

/** The packages and the dist files a fresh process loaded doing `action` (see the recorder's usage). */
const loaded = (...args: string[]) => runFixture<{ packages: string[]; files: string[] }>(RECORDER, ...args);
const loadedPackages = async (...args: string[]) => (await loaded(...args)).packages;

const mcpSdk = (packages: string[]) => packages.filter((name) => name.startsWith("@modelcontextprotocol/"));

function project(mcpServers: Record<string, unknown> = {}) {
  const created = createTempProject({ tools: { tools: [toolEntry("echo", "shell", "echo.sh")], codeExecution: { enabled: true } }, mcp: { mcpServers } });
  created.useFixtures("echo.sh");
  return created;
}

describe("loading on demand", () => {
  it("importing the main entry loads no dependency", async () => {
    expect(await loadedPackages("import")).toEqual([]);
  });

  it("an executor without MCP servers loads neither the MCP SDK nor execa until a tool runs", async () => {
    const { root } = project();
    const created = await loadedPackages("create", root);
    expect(mcpSdk(created)).toEqual([]);
    expect(created).not.toContain("execa");
    const called = await loadedPackages("call", root, "echo");
    expect(called).toContain("execa");
    expect(mcpSdk(called)).toEqual([]);
  });

  it("loads the OpenTelemetry API only once something registers with it, and then traces", async () => {
    const { root } = project();
    expect(await loadedPackages("call", root, "echo")).not.toContain("@opentelemetry/api");
    const late = await runFixture<{ apiLoadedAtStart: boolean; ok: boolean; spans: string[] }>(LATE_TRACING, root, "echo");
    expect(late).toEqual({ apiLoadedAtStart: false, ok: true, spans: ["execute_tool echo"] });
  });

  it("loads the python and web-search plugins' running code only when the project has something for them", async () => {
    const { root } = project();
    const idle = (await loaded("call", root, "echo")).files;
    expect(idle).toContain("plugins/python/config/python-modules-section.js");
    expect(idle).not.toContain("plugins/python/python-plugin.js");
    expect(idle).toContain("plugins/web-search/web-search-plugin.js");
    expect(idle).not.toContain("plugins/web-search/start-web-search.js");
    const busy = createTempProject({ tools: { tools: [{ name: "echo_py", function: "echo_function.py:echo" }], webSearch: { provider: "searxng", url: "http://127.0.0.1:9" } } });
    busy.write("tools/echo_function.py", "def echo(text: str) -> str:\n    \"\"\"Echo the text.\"\"\"\n    return text\n");
    const used = (await loaded("create", busy.root)).files;
    expect(used).toContain("plugins/python/python-plugin.js");
    expect(used).toContain("plugins/web-search/start-web-search.js");
  });

  it("loads tool search's index, ranking tables and word vectors only when it searches", async () => {
    const { root } = project();
    const searchWork = ["plugins/search/rank-tools.js", "plugins/search/related-words.js", "plugins/search/tool-index.js", "plugins/search/word-vectors.js"];
    const created = (await loaded("create", root)).files;
    expect(created).toContain("plugins/search/search-plugin.js");
    expect(created.filter((file) => searchWork.includes(file))).toEqual([]);
    expect((await loaded("search", root, "echo the text")).files).toEqual(expect.arrayContaining(searchWork));
  });

  it("builds no search index in an idle executor with a small registry, past the idle-build delay", async () => {
    const { root } = project();
    const idle = (await loaded("idle", root, String(IDLE_BUILD_DELAY_MS + 1_500))).files;
    expect(idle).toContain("plugins/search/search-plugin.js");
    expect(idle.filter((file) => file === "plugins/search/search-engine.js" || file === "plugins/search/word-vectors.js")).toEqual([]);
  });

  it("loads acorn only to parse code, and chokidar only to watch files", async () => {
    // No code execution: no runtime starts, so nothing warms the parser in the background.
    const plain = createTempProject({ tools: { tools: [toolEntry("echo", "shell", "echo.sh")] } });
    plain.useFixtures("echo.sh");
    const created = await loadedPackages("create", plain.root);
    expect(created).not.toContain("acorn");
    expect(created).not.toContain("chokidar");
  });

  it("creates an executor on a well-formed project without loading zod, and loads it to word a problem", async () => {
    // The bundled example (tools.json with code mode, an empty mcp.json), and a project using every
    // built-in key that has a fast check.
    const example = createTempProject({ tools: JSON.parse(readFileSync(path.join(REPOSITORY, "tools.json"), "utf8")), mcp: JSON.parse(readFileSync(path.join(REPOSITORY, "mcp.json"), "utf8")) });
    cpSync(path.join(REPOSITORY, "tools"), path.join(example.root, "tools"), { recursive: true });
    expect(await loadedPackages("create", example.root)).not.toContain("zod");
    const keys = { toolSearch: { offerTool: true, pinnedTools: ["echo"] }, webSearch: { provider: "searxng", url: "http://127.0.0.1:9" }, defaults: { timeoutMs: 5_000, env: { A: "b" } } };
    const full = createTempProject({ tools: { $schema: "./tools.schema.json", tools: [toolEntry("echo", "shell", "echo.sh")], codeExecution: { enabled: false }, ...keys }, mcp: { $schema: "x", mcpServers: {} } });
    full.useFixtures("echo.sh");
    expect(await loadedPackages("create", full.root)).not.toContain("zod");
    const faulty = createTempProject({ tools: { tools: [toolEntry("echo", "shell", "echo.sh")], defaults: { timeoutMs: "5000" } }, mcp: { mcpServers: {} } });
    faulty.useFixtures("echo.sh");
    expect(await loadedPackages("refused", faulty.root)).toContain("zod");
  });

  it("an executor whose mcp.json names a server loads the MCP SDK at start", async () => {
    const { root } = project({ fixture: fixtureServer() });
    const created = await loaded("create", root);
    expect(mcpSdk(created.packages)).not.toEqual([]);
    expect(created.files).toContain("plugins/mcp/config/resolve-mcp-server.js");
  });

  it("loads rotating-file-stream with the first record of the execution log, not at start", async () => {
    const { root } = project();
    expect(await loadedPackages("create", root)).not.toContain("rotating-file-stream");
    expect(await loadedPackages("logged", root, "echo")).toContain("rotating-file-stream");
    expect(readFileSync(path.join(root, ".toolexec", "logs", "executions.jsonl"), "utf8")).toContain('"echo"');
  });

  it("loads the script runner, MCP server resolution and the registry writer only when they are used", async () => {
    const { root } = project();
    const onDemand = ["plugins/script/run-script.js", "core/python-environments/ensure-python-environment.js", "plugins/mcp/config/resolve-mcp-server.js", "core/registry/tools-config-writer.js", "core/registry/write-registry-change.js"];
    const created = (await loaded("create", root)).files;
    expect(created).toContain("plugins/script/script-plugin.js");
    expect(created).toContain("plugins/mcp/config/mcp-config-section.js");
    expect(created.filter((file) => onDemand.includes(file))).toEqual([]);
    expect((await loaded("call", root, "echo")).files).toEqual(expect.arrayContaining(["plugins/script/run-script.js", "core/python-environments/ensure-python-environment.js"]));
    expect((await loaded("registry", root)).files).toEqual(expect.arrayContaining(["core/registry/tools-config-writer.js", "core/registry/write-registry-change.js"]));
  });
});
