/**
 * The `toolexec` executable (package.json "bin") is the bundle `npm run build` makes in dist/bin/
 * (scripts/bundle-cli.mjs): `toolexec serve` lists its tools having loaded neither the MCP SDK nor
 * zod as separate module files (Node's loader pays per file: the reason for the bundle), and no
 * module of the unbundled dist/ either (which would be a second copy of our classes in the process),
 * and one ajv: the MCP SDK's and the one our validators `require` are the bundle's.
 * The code runtime, the Python worker and the console still run from their files in dist/ through
 * it: test/code/code-cli, test/cli/python-failure-output and test/console/console-cli spawn this bin.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { expect, it, vi } from "vitest";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { REPOSITORY, TOOLEXEC_BIN } from "../helpers/toolexec-bin.mjs";

const RECORDER = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "record-loaded-files.mjs");
const DIST = path.join(REPOSITORY, "dist");

it("serves the example's kind of project from the bundle: no MCP SDK, zod or unbundled dist/ module loads as its own file", async () => {
  const project = createTempProject({ tools: { tools: [toolEntry("echo", "shell", "echo.sh")], codeExecution: { enabled: true, poolSize: 1 } } });
  project.useFixtures("echo.sh");
  const transport = new StdioClientTransport({ command: process.execPath, args: ["--import", RECORDER, TOOLEXEC_BIN, "serve", "--root", project.root], stderr: "pipe" });
  let stderr = "";
  transport.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "bundled-bin", version: "1.0.0" });
  await client.connect(transport);
  try {
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["echo", "code_execution"]));
    expect((await client.callTool({ name: "code_execution", arguments: { code: "return (await tools.local.echo({ n: 2 })).n * 21" } })).structuredContent).toMatchObject({ ok: true, value: 42 });
    process.kill(transport.pid!, "SIGUSR2");
    await vi.waitFor(() => expect(stderr).toMatch(/^loaded-files /m), { timeout: 10_000, interval: 20 });
  } finally {
    await client.close();
  }
  const files: string[] = JSON.parse(/^loaded-files (.*)$/m.exec(stderr)![1]!);
  const under = (folder: string) => files.filter((file) => file.startsWith(`${folder}${path.sep}`));
  const outsideBundle = under(DIST).filter((file) => !file.startsWith(path.join(DIST, "bin") + path.sep));
  // The recorder sees the process's modules: the executable, and the chunks it loaded.
  expect(files).toContain(TOOLEXEC_BIN);
  // By the package's folder in any node_modules: the installed one may be reached through a symbolic link.
  const fromPackage = (scope: string) => files.filter((file) => file.includes(`${path.sep}node_modules${path.sep}${scope}${path.sep}`)).length;
  // ajv: the SDK's and our validators' (the code call compiled one) are the bundle's one copy.
  expect({ sdk: fromPackage("@modelcontextprotocol"), zod: fromPackage("zod"), ajv: fromPackage("ajv"), unbundledDist: outsideBundle }).toEqual({ sdk: 0, zod: 0, ajv: 0, unbundledDist: [] });
  expect(under(path.join(DIST, "bin")).length).toBeGreaterThan(1);
}, 60_000);

it("runs the CLI once from each way of starting it: the bundle, and dist/cli/bin.js or dist/cli/main.js unbundled", () => {
  const { version } = JSON.parse(readFileSync(path.join(REPOSITORY, "package.json"), "utf8")) as { version: string };
  for (const executable of [TOOLEXEC_BIN, path.join(DIST, "cli", "bin.js"), path.join(DIST, "cli", "main.js")]) {
    expect({ executable, stdout: execFileSync(process.execPath, [executable, "--version"], { encoding: "utf8" }) }).toEqual({ executable, stdout: `${version}\n` });
  }
});
