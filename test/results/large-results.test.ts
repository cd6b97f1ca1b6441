/**
 * Issue 24's acceptance, with real processes: a stdio MCP server answers 3 MB of text, 2,000 rows
 * and a large image. A model (the OpenAI adapter) reads at most the budget plus a line naming a
 * handle; read_result pages through the rest exactly; code mode and the host get the whole value; an
 * MCP client of `serve` gets the bounded form and reads the whole as a resource, its own only.
 */
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { runOpenAiToolCalls } from "../../src/llm.js";
import { serveHttp, type HttpServing } from "../../src/serve.js";
import { largeText, tableRows } from "../fixtures/mcp/large-text.mjs";
import { createTempProject } from "../helpers/temp-project.js";
import { FIXTURES, silentLogger } from "../mcp/mcp-test-helpers.js";
import { httpClient } from "../serve/serve-test-helpers.js";

const BUDGET = 25_000;
const THREE_MB = 3_000_000;
const HANDLE_LINE = /\n(\[… [^\n]*read_result (\{[^\n]*\})\])$/;

let executor: Executor;
let serving: HttpServing;
beforeAll(async () => {
  const project = createTempProject({ sharedByFile: true, tools: { tools: [], codeExecution: { enabled: true, poolSize: 1 } } });
  project.write("mcp.json", { mcpServers: { large: { command: process.execPath, args: [path.join(FIXTURES, "large-results-server.mjs")] } } });
  executor = await createExecutor({ root: project.root, logDir: false, watch: false, logger: silentLogger });
  serving = await serveHttp(executor);
}, 60_000);
afterAll(async () => {
  await serving?.close();
  await executor?.close();
});

/** One tool call as a model makes it, answered as the OpenAI adapter answers it. */
async function askAsModel(name: string, args: object): Promise<string> {
  const [message] = await runOpenAiToolCalls(executor, { tool_calls: [{ id: "call_1", type: "function", function: { name, arguments: JSON.stringify(args) } }] });
  return message!.content;
}

/** The bounded text split into its head and the read_result arguments its last line names. */
function splitHandleLine(text: string): { head: string; line: string; call: { handle: string; offset?: number; path?: string } } {
  const match = HANDLE_LINE.exec(text);
  expect(match, `no handle line at the end of: …${text.slice(-300)}`).not.toBeNull();
  return { head: text.slice(0, match!.index), line: match![1]!, call: JSON.parse(match![2]!) };
}

it("gives a model at most the budget and a handle line for a 3 MB result, and read_result pages through all of it byte for byte", async () => {
  const original = largeText(THREE_MB);
  const text = await askAsModel("large__text", { chars: THREE_MB });
  const { head, line, call } = splitHandleLine(text);
  expect(head.length).toBeLessThanOrEqual(BUDGET);
  expect(head.length).toBeGreaterThan(BUDGET * 0.75);
  expect(original.startsWith(head)).toBe(true);
  expect(line).toMatch(/^\[… [\d,]+ more characters: read_result \{"handle":"r_[A-Za-z0-9_-]{20,}","offset":\d+\}\]$/);
  expect(line).toContain(`${(THREE_MB - head.length).toLocaleString("en-US")} more characters`);
  expect(call.offset).toBe(head.length);

  // The model follows the handle, page after page, from where its head ended.
  const pages = [head];
  let offset: number | null = call.offset!;
  while (offset !== null) {
    const page = JSON.parse(await askAsModel("read_result", { handle: call.handle, offset })) as { text: string; offset: number; nextOffset: number | null; total: number };
    expect(page.offset).toBe(offset);
    expect(page.total).toBe(THREE_MB);
    expect(page.text.length).toBeLessThanOrEqual(BUDGET);
    pages.push(page.text);
    offset = page.nextOffset;
  }
  expect(Buffer.compare(Buffer.from(pages.join(""), "utf8"), Buffer.from(original, "utf8"))).toBe(0);
}, 120_000);

it("gives code mode and the host's callTool the whole value", async () => {
  const original = largeText(THREE_MB);
  const host = await executor.callTool("large__text", { chars: THREE_MB });
  expect(host.ok && host.value).toBe(original);
  expect(host.ok && host.truncated).toBeUndefined();
  const code = await executor.executeCode({ code: 'const r = call_tool("large", "text", { chars: input.chars }); ({ length: r.value.length, tail: r.value.slice(-200) })', input: { chars: THREE_MB } });
  expect(code.ok && code.value).toEqual({ length: THREE_MB, tail: original.slice(-200) });
}, 120_000);

it("cuts a JSON array of objects on whole items, says how many were left out, and pages the rest as items", async () => {
  const rows = tableRows(2_000);
  const text = await askAsModel("large__rows", { count: 2_000 });
  const { head, line, call } = splitHandleLine(text);
  const shown = JSON.parse(head) as typeof rows;
  expect(head.length).toBeLessThanOrEqual(BUDGET);
  expect(shown).toEqual(rows.slice(0, shown.length));
  expect(line).toContain(`${(2_000 - shown.length).toLocaleString("en-US")} of 2,000 items at $`);
  expect(call).toMatchObject({ path: "$", offset: shown.length });
  const next = JSON.parse(await askAsModel("read_result", call)) as { value: typeof rows; offset: number; nextOffset: number; total: number };
  expect(next.total).toBe(2_000);
  expect(next.value).toEqual(rows.slice(shown.length, next.nextOffset));
  expect(JSON.parse(await askAsModel("read_result", { handle: call.handle, path: "$[1999].name" }))).toMatchObject({ text: "row 1999" });
}, 60_000);

it("replaces an image past the budget by a note naming its size and where read_result finds it", async () => {
  const text = await askAsModel("large__picture", { chars: 400_000 });
  expect(text.length).toBeLessThan(BUDGET);
  expect(text).not.toMatch(/A{1000}/);
  expect(text).toContain("[image/png, 400,000 characters of base64 left out: read_result {\\\"handle\\\":\\\"r_");
  expect(text).toContain('\\"path\\":\\"$[0]\\"');
}, 60_000);

it("serves the bounded form over MCP, with the handle as a resource that only the session that got it can read", async () => {
  const client = await httpClient(serving.url);
  const other = await httpClient(serving.url);
  try {
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((template) => template.uriTemplate)).toContain("toolexec://results/{handle}{?offset,limit,path}");
    const result = (await client.callTool({ name: "large__text", arguments: { chars: THREE_MB } })) as { content: Array<{ type: string; text: string }>; _meta: Record<string, { uri: string; handle: string; totalChars: number }> };
    expect(result.content).toHaveLength(1);
    const { head } = splitHandleLine(result.content[0]!.text);
    expect(head.length).toBeLessThanOrEqual(BUDGET);
    const meta = result._meta["toolexec/truncated"]!;
    expect(meta).toMatchObject({ totalChars: THREE_MB, maxChars: BUDGET, uri: `toolexec://results/${meta.handle}` });

    const read = await client.readResource({ uri: meta.uri });
    expect((read.contents[0] as { text: string }).text === largeText(THREE_MB)).toBe(true);
    const page = await client.readResource({ uri: `${meta.uri}?offset=10&limit=20` });
    expect((page.contents[0] as { text: string }).text).toBe(largeText(THREE_MB).slice(10, 30));
    await expect(other.readResource({ uri: meta.uri })).rejects.toThrow(/RESULT_NOT_FOUND/);

    const picture = (await client.callTool({ name: "large__picture", arguments: { chars: 40_000 } })) as { _meta: Record<string, { uri: string }> };
    const image = await client.readResource({ uri: `${picture._meta["toolexec/truncated"]!.uri}?path=$[0]` });
    expect(image.contents[0]).toMatchObject({ mimeType: "image/png", blob: "A".repeat(40_000) });
  } finally {
    await client.close();
    await other.close();
  }
}, 120_000);
