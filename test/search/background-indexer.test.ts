/**
 * The index is built off the request path: not at start, but on the first search or once the host
 * has been idle for a while (then once the registry holds tools), and after each change, in slices
 * that let the event loop turn between them; a search that comes first finishes the remainder itself.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../src/core/plugin-contract.js";
import { createBackgroundIndexer } from "../../src/plugins/search/background-indexer.js";
import { createToolIndex } from "../../src/plugins/search/tool-index.js";

const tools = (count: number, note = ""): ToolDefinition[] =>
  Array.from({ length: count }, (_, at) => ({
    name: `server${at % 20}__create_record_${at}`,
    description: `Create a record in table ${at} of the project workspace, with its owner, labels and schedule.${note}`,
    inputSchema: { type: "object", properties: { recordId: { type: "string", description: "The record id" } } },
  }));

/** Turns of the event loop until `done`, at most `limit` (a bounded poll, not a timer). */
async function turnsUntil(done: () => boolean, limit = 100_000): Promise<number> {
  let turns = 0;
  while (!done() && turns < limit) {
    await new Promise((resolve) => setImmediate(resolve));
    turns++;
  }
  return turns;
}

describe("the background indexer", () => {
  it("indexes the listing without a search, letting the event loop turn between slices", async () => {
    const index = createToolIndex();
    const listing = tools(3_000);
    const indexer = createBackgroundIndexer(index, () => listing, undefined, 0);
    expect(index.size).toBe(0);
    const turns = await turnsUntil(() => index.size === listing.length);
    expect(index.size).toBe(listing.length);
    // 3,000 tools take far longer than one 8 ms slice: the build was split.
    expect(turns).toBeGreaterThan(1);
    expect(indexer.current()).toEqual({ added: 0, changed: 0, removed: 0 });
    indexer.close();
  });

  it("waits for a registry that is still empty at start, then indexes it", async () => {
    const index = createToolIndex();
    let listing: ToolDefinition[] = [];
    const indexer = createBackgroundIndexer(index, () => listing, undefined, 0);
    await turnsUntil(() => false, 20);
    listing = tools(50);
    // The indexer looks again on a timer while the listing is empty: poll on timers too, bounded.
    for (let tries = 0; tries < 1_000 && index.size !== 50; tries++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(index.size).toBe(50);
    indexer.close();
  });

  it("re-indexes only the changed tool after a change, and a search first finishes the rest", async () => {
    const index = createToolIndex();
    let listing = tools(200);
    const indexer = createBackgroundIndexer(index, () => listing, undefined, 0);
    await turnsUntil(() => index.size === 200);
    listing = listing.map((tool, at) => (at === 7 ? { ...tool, description: `${tool.description} Changed.` } : tool));
    indexer.markStale();
    const version = index.version;
    await turnsUntil(() => index.version !== version);
    expect(index.document(listing[7]!.name)?.fingerprint).toContain("Changed.");
    listing = tools(150);
    indexer.markStale();
    // No turn of the loop: the caller's refresh does the whole update itself (tool 7 is back as it was).
    expect(indexer.current()).toEqual({ added: 0, changed: 1, removed: 50 });
    expect(index.size).toBe(150);
    indexer.close();
  });

  it("indexes nothing at start: the first search builds the index, or the idle delay does", async () => {
    const index = createToolIndex();
    let listing = tools(300);
    const idle = createBackgroundIndexer(index, () => listing, undefined, 60_000);
    await turnsUntil(() => false, 200);
    listing = tools(320);
    idle.markStale();
    await turnsUntil(() => false, 200);
    expect(index.size).toBe(0);
    // The first search indexes everything itself.
    expect(idle.current()).toEqual({ added: 320, changed: 0, removed: 0 });
    idle.close();
    const later = createToolIndex();
    const delayed = createBackgroundIndexer(later, () => listing, undefined, 20);
    // Polled on timers, bounded: the delay is a timer.
    for (let tries = 0; tries < 2_000 && later.size !== 320; tries++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(later.size).toBe(320);
    delayed.close();
  });

  it("finishes a background build in a quiet process: nothing else wakes the event loop between slices", { timeout: 90_000 }, async () => {
    // A process with only the build and one far timer that keeps it alive: the build must not wait
    // for that timer between its slices (an unref'd immediate let the loop sleep until it fired).
    const repository = fileURLToPath(new URL("../..", import.meta.url));
    const script = [
      `import { createBackgroundIndexer } from ${JSON.stringify(`${repository}src/plugins/search/background-indexer.ts`)};`,
      `import { createToolIndex } from ${JSON.stringify(`${repository}src/plugins/search/tool-index.ts`)};`,
      "const listing = Array.from({ length: 20000 }, (_, at) => ({ name: `s${at % 20}__create_record_${at}`, description: `Create a record in table ${at} of the workspace.`, inputSchema: { type: 'object' } }));",
      "const index = createToolIndex();",
      "const keepAlive = setTimeout(() => { console.log(`stalled at ${index.size}`); process.exit(0); }, 30000);",
      "createBackgroundIndexer(index, () => listing, () => { console.log(`built ${index.size}`); clearTimeout(keepAlive); }, 0);",
    ].join("\n");
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: repository, timeout: 80_000 }, (error, out) => (error ? reject(error) : resolve(out)));
    });
    expect(stdout.trim()).toBe("built 20000");
  });
});
