/**
 * Where a result budget comes from, most specific first: a tools.json tool's `results`, an mcp.json
 * server's `results`, the `results.maxChars` option, tools.json's `defaults.results`, 25,000. Real
 * script tools and a real stdio server; and the errors of read_result and of the `bounded` option.
 */
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor, isToolexecError, type Executor, type ExecutorOptions } from "../../src/index.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { FIXTURES, silentLogger } from "../mcp/mcp-test-helpers.js";

const LONG_JS = 'let s = "";\nprocess.stdin.on("data", (d) => (s += d)).on("end", () => process.stdout.write("word ".repeat(JSON.parse(s).words)));\n';

const open: Executor[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((executor) => executor.close()));
});

async function project(options: ExecutorOptions = {}, defaults: object = { results: { maxChars: 300 } }) {
  const created = createTempProject({
    tools: { defaults, tools: [toolEntry("long", "node", "long.js"), toolEntry("long_own", "node", "long.js", { results: { maxChars: 100 } })] },
    mcp: { mcpServers: { large: { command: process.execPath, args: [path.join(FIXTURES, "large-results-server.mjs")], results: { maxChars: 200 } } } },
  });
  created.write("tools/long.js", LONG_JS);
  const executor = await createExecutor({ root: created.root, logDir: false, watch: false, logger: silentLogger, ...options });
  open.push(executor);
  return executor;
}

/** The length of the head a bounded call shows (the text before its handle line). */
async function shownHead(executor: Executor, name: string, args: object): Promise<number> {
  const result = await executor.callTool(name, args, { bounded: true });
  if (!result.ok || !result.truncated) throw new Error(`expected a cut result, got ${JSON.stringify(result).slice(0, 300)}`);
  return result.truncated.text.lastIndexOf("\n[…");
}

describe("the result budget", () => {
  it("takes a tool's own, else its server's, else tools.json's defaults", async () => {
    const executor = await project();
    expect(await shownHead(executor, "long", { words: 1_000 })).toBe(300);
    expect(await shownHead(executor, "long_own", { words: 1_000 })).toBe(100);
    expect(await shownHead(executor, "large__text", { chars: 1_000 })).toBeLessThanOrEqual(200);
    expect(await shownHead(executor, "large__text", { chars: 1_000 })).toBeGreaterThan(150);
  }, 60_000);

  it("lets the results.maxChars option replace tools.json's default, not a tool's own; 25,000 when nothing sets one", async () => {
    const executor = await project({ results: { maxChars: 50 } });
    expect(await shownHead(executor, "long", { words: 1_000 })).toBe(50);
    expect(await shownHead(executor, "long_own", { words: 1_000 })).toBe(100);
    const unset = await project({}, {});
    expect(await shownHead(unset, "long", { words: 10_000 })).toBe(25_000);
    const whole = await unset.callTool("long", { words: 10_000 });
    expect(whole.ok && whole.value).toBe("word ".repeat(10_000));
  }, 60_000);

  it("answers read_result's mistakes with specific errors", async () => {
    const executor = await project();
    const cut = await executor.callTool("long", { words: 1_000 }, { bounded: true });
    const handle = cut.ok ? cut.truncated!.handle! : "";
    expect(await executor.callTool("read_result", { handle: "r_neverIssued" })).toMatchObject({
      ok: false,
      error: { code: "RESULT_NOT_FOUND", message: expect.stringMatching(/^No stored result r_neverIssued: it expired, was evicted .*, belongs to another session, or never existed/) },
    });
    expect(await executor.callTool("read_result", { handle, offset: 10_000 })).toMatchObject({ ok: false, error: { code: "INVALID_INPUT", message: "offset 10,000 is past the end: the text has 5,000 characters" } });
    expect(await executor.callTool("read_result", { handle, path: "rows" })).toMatchObject({ ok: false, error: { code: "INVALID_INPUT", message: 'Expected a JSON path starting with "$" (e.g. "$.rows[3]"), got "rows"' } });
    expect(await executor.callTool("read_result", { handle, path: "$.rows" })).toMatchObject({ ok: false, error: { code: "INVALID_INPUT", message: 'The result has nothing at $.rows: $ has no "rows"' } });
    expect(await executor.callTool("read_result", { handle, offset: 4_990, limit: 100 })).toMatchObject({ ok: true, value: { text: "word word ", offset: 4_990, nextOffset: null, total: 5_000 } });
    expect(await executor.callTool("long", {}, { bounded: "yes" } as never)).toMatchObject({ ok: false, error: { code: "INVALID_OPTIONS", message: 'Expected bounded to be true or false, got "yes"' } });
  }, 60_000);

  it("refuses a budget that is not a positive whole number, in tools.json and in mcp.json", async () => {
    const created = createTempProject({
      tools: { defaults: { results: { maxChars: 0 } }, tools: [toolEntry("long", "node", "long.js", { results: { maxChar: 10 } })] },
      mcp: { mcpServers: { large: { command: "node", results: { maxChars: "many" } } } },
    });
    const error = await createExecutor({ root: created.root, logDir: false, watch: false, logger: silentLogger }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(isToolexecError(error) && error.code).toBe("CONFIG_INVALID");
    const message = (error as Error).message;
    expect(message).toContain("defaults.results.maxChars: Expected a number greater than 0, got 0");
    expect(message).toContain('tools[0].results.maxChar: Unknown key "maxChar" (did you mean "maxChars"?)');
    expect(message).toContain('mcpServers.large.results.maxChars: Expected a number, got "many"');
  });
});
