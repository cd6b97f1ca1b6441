/**
 * The MCP Inspector's CLI (`inspector --cli`, the `@modelcontextprotocol/inspector-cli` package: the
 * full `@modelcontextprotocol/inspector` needs Node 22) drives `toolexec serve` as a user would:
 * over stdio, starting the built CLI itself, and over HTTP against `toolexec serve --http`.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execa, type ResultPromise } from "execa";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createTempProject, type TempProject } from "../helpers/temp-project.js";
import { TOOLEXEC_BIN } from "../helpers/toolexec-bin.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const REPOSITORY = path.join(here, "..", "..");
const TOOLEXEC = TOOLEXEC_BIN;
const INSPECTOR_BUILD = path.join(REPOSITORY, "node_modules", "@modelcontextprotocol", "inspector-cli", "build");
const UPSTREAM = path.join(REPOSITORY, "test", "fixtures", "serve", "conformance-upstream.mjs");
/** Each Inspector run starts node twice (the Inspector, then toolexec serve over stdio): seconds apiece on a loaded machine. */
const INSPECTOR_TEST_TIMEOUT_MS = 90_000;

let project: TempProject;
let served: ResultPromise | undefined;

beforeEach(() => {
  project = createTempProject({
    tools: {
      tools: [{ name: "echo", description: "Echo the arguments back.", runtime: "shell", script: "echo.sh", inputSchema: { type: "object", properties: { text: { type: "string" } } } }],
      codeExecution: { enabled: true, poolSize: 1 },
    },
    mcp: { mcpServers: { upstream: { command: process.execPath, args: [UPSTREAM], prefix: false } } },
  });
  project.useFixtures("echo.sh");
});

afterEach(async () => {
  served?.kill("SIGTERM");
  await served;
  served = undefined;
});

/**
 * Run the Inspector CLI. Its working folder is its own `build/`: 0.21 finds its package.json by a
 * path it checks against the working folder but imports relative to its module, which agree only there.
 */
async function inspect(args: string[]): Promise<unknown> {
  const result = await execa(process.execPath, [path.join(INSPECTOR_BUILD, "cli.js"), "--cli", ...args], { cwd: INSPECTOR_BUILD, reject: false, timeout: 60_000 });
  expect(result.exitCode, `${result.stdout}\n${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout);
}

it("lists and calls toolexec's tools over stdio: local, unprefixed upstream and code_execution alike", async () => {
  const serve = [process.execPath, TOOLEXEC, "serve", "--root", project.root];
  const listed = (await inspect([...serve, "--method", "tools/list"])) as { tools: Array<{ name: string }> };
  expect(listed.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["echo", "test_simple_text", "test_error_handling", "code_execution"]));
  expect(await inspect([...serve, "--method", "tools/call", "--tool-name", "echo", "--tool-arg", "text=hello"])).toMatchObject({
    content: [{ type: "text", text: '{"text":"hello"}' }],
    structuredContent: { text: "hello" },
  });
  expect(await inspect([...serve, "--method", "tools/call", "--tool-name", "test_simple_text"])).toEqual({
    content: [{ type: "text", text: "This is a simple text response for testing." }],
  });
  expect(await inspect([...serve, "--method", "tools/call", "--tool-name", "code_execution", "--tool-arg", "code=(await tools.local.echo({ text: 'from code' })).text"])).toMatchObject({
    structuredContent: { ok: true, value: "from code" },
  });
}, INSPECTOR_TEST_TIMEOUT_MS);

it("lists and calls tools over HTTP against toolexec serve --http", async () => {
  served = execa(process.execPath, [TOOLEXEC, "serve", "--http", "--root", project.root], { reject: false, stdin: "ignore" });
  const url = await new Promise<string>((resolve) => served!.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString().trim())));
  const listed = (await inspect([url, "--transport", "http", "--method", "tools/list"])) as { tools: Array<{ name: string }> };
  expect(listed.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["echo", "test_image_content", "code_execution"]));
  expect(await inspect([url, "--transport", "http", "--method", "tools/call", "--tool-name", "echo", "--tool-arg", "text=over http"])).toMatchObject({ structuredContent: { text: "over http" } });
  expect(await inspect([url, "--transport", "http", "--method", "tools/call", "--tool-name", "code_execution", "--tool-arg", "code=6 * 7"])).toMatchObject({
    structuredContent: { ok: true, value: 42 },
  });
  const image = (await inspect([url, "--transport", "http", "--method", "tools/call", "--tool-name", "test_image_content"])) as { content: Array<{ type: string; mimeType?: string }> };
  expect(image.content).toEqual([expect.objectContaining({ type: "image", mimeType: "image/png" })]);
  expect(await inspect([url, "--transport", "http", "--method", "prompts/get", "--prompt-name", "test_prompt_with_arguments", "--prompt-args", "arg1=hello", "arg2=world"])).toEqual({
    messages: [{ role: "user", content: { type: "text", text: "Prompt with arguments: arg1='hello', arg2='world'" } }],
  });
}, INSPECTOR_TEST_TIMEOUT_MS);
