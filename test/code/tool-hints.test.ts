/**
 * `tools.<server>.<tool>` names that do not exist: code that writes `tools.everything.get_sum` for
 * the MCP tool `get-sum` gets a TypeError naming the closest tool in the syntax to write, instead of
 * "tools.everything.get_sum is not a function". The same for an unknown server. Probes that must
 * stay quiet (`in`, `await`, JSON, Object.keys) still work.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { createTempProject } from "../helpers/temp-project.js";
import { EVERYTHING, silentLogger } from "../mcp/mcp-test-helpers.js";

let executor: Executor;
beforeAll(async () => {
  const project = createTempProject({
    tools: { tools: [] },
    mcp: { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] }, "my-docs": { command: process.execPath, args: [EVERYTHING, "stdio"] } } },
  });
  executor = await createExecutor({ root: project.root, watch: false, logDir: false, logger: silentLogger, codeExecution: { enabled: true, poolSize: 1 } });
});
afterAll(() => executor.close());

async function failure(code: string): Promise<string> {
  const result = await executor.executeCode({ code });
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  expect(result.error.code).toBe("RUNTIME_ERROR");
  return result.error.message;
}

describe("a tool or server name that does not exist", () => {
  it("names the closest tool with the exact bracket syntax", async () => {
    expect(await failure("await tools.everything.get_sum({ a: 1, b: 2 })")).toMatchInlineSnapshot(`"TypeError: tools.everything has no tool "get_sum"; did you mean tools.everything["get-sum"]?"`);
    expect(await failure("await tools.everything.echoo({ message: 'x' })")).toMatchInlineSnapshot(`"TypeError: tools.everything has no tool "echoo"; did you mean tools.everything.echo?"`);
    expect(await failure("await tools.everything.frobnicate()")).toMatch(/^TypeError: tools\.everything has no tool "frobnicate" \(its tools: .*get-sum.*\); search_tools\("words"\) finds tools$/);
  });

  it("names the closest server, in brackets when its name needs them", async () => {
    expect(await failure("await tools.evrything.echo({ message: 'x' })")).toMatchInlineSnapshot(`"TypeError: tools has no server "evrything"; did you mean tools.everything?"`);
    expect(await failure("await tools.my_docs.echo({ message: 'x' })")).toMatchInlineSnapshot(`"TypeError: tools has no server "my_docs"; did you mean tools["my-docs"]?"`);
    expect(await failure("tools.github")).toMatchInlineSnapshot(`"TypeError: tools has no server "github" (servers: local, everything, my-docs); search_tools("words") finds tools"`);
    expect(await failure("tools['my-docs'].get_sum")).toMatchInlineSnapshot(`"TypeError: tools["my-docs"] has no tool "get_sum"; did you mean tools["my-docs"]["get-sum"]?"`);
  });

  it("leaves existing names, feature tests, await and JSON alone", async () => {
    const result = await executor.executeCode({
      code: [
        "const sum = await tools.everything['get-sum']({ a: 1, b: 2 });",
        "const probes = ['get_sum' in tools.everything, 'get-sum' in tools.everything, 'github' in tools, typeof tools.everything.then, typeof tools.toJSON, typeof tools.constructor, typeof tools.everything.toString];",
        "const keys = Object.keys(tools).sort();",
        "const awaited = (await tools.everything) === tools.everything;",
        "let caught; try { tools.nope } catch (error) { caught = error instanceof TypeError }",
        "({ sum, probes, keys, awaited, caught, json: JSON.stringify(tools) })",
      ].join("\n"),
    });
    expect(result).toMatchObject({ ok: true, value: { probes: [false, true, false, "undefined", "undefined", "undefined", "undefined"], keys: ["everything", "local", "my-docs"], awaited: true, caught: true, json: '{"local":{},"everything":{},"my-docs":{}}' } });
    expect(JSON.stringify((result as { value: { sum: unknown } }).value.sum)).toContain("3");
  });
});
