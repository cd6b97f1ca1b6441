/** What `toolexec serve` says on stderr: one line when it starts serving stdio, one line when its port is taken. */
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { execa } from "execa";
import { expect, it } from "vitest";
import { BIN } from "../cli/run-cli.js";
import { createTempProject } from "../helpers/temp-project.js";

it("over stdio, says on stderr (never stdout, the protocol) that it is serving, then ends with its input", async () => {
  const { root } = createTempProject({ tools: { tools: [] } });
  const run = await execa(process.execPath, [BIN, "serve", "--root", root], { reject: false, input: "", timeout: 15_000 });
  expect({ exitCode: run.exitCode, stdout: run.stdout }).toEqual({ exitCode: 0, stdout: "" });
  expect(run.stderr.replaceAll(root, "<root>")).toMatchInlineSnapshot(`"toolexec serve: serving <root> over stdio (MCP on stdin and stdout); close stdin to stop"`);
});

it("with --http on a port in use, prints one clear line instead of a stack trace, and exits 1", async () => {
  const { root } = createTempProject({ tools: { tools: [] } });
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  const { port } = taken.address() as AddressInfo;
  try {
    const run = await execa(process.execPath, [BIN, "serve", "--http", "--port", String(port), "--root", root], { reject: false, stdin: "ignore", timeout: 15_000 });
    expect({ exitCode: run.exitCode, stdout: run.stdout }).toEqual({ exitCode: 1, stdout: "" });
    expect(run.stderr.replaceAll(String(port), "<port>")).toMatchInlineSnapshot(`"toolexec serve: Cannot listen on 127.0.0.1:<port>: the port is already in use; stop what uses it or pick another port with --port"`);
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }
});
