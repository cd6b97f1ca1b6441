/**
 * `toolexec serve --http --console` through the built CLI: the console is served only with the flag,
 * the flag needs --http, and the token from --token-env guards its API.
 */
import { execa, type ResultPromise } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { BIN } from "../cli/run-cli.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";

const running: ResultPromise[] = [];
afterEach(async () => {
  for (const child of running.splice(0)) {
    child.kill("SIGTERM");
    await child;
  }
});

function project() {
  const made = createTempProject({ tools: { tools: [toolEntry("echo", "shell", "echo.sh")] } });
  made.useFixtures("echo.sh");
  return made;
}

/** Starts `serve` with `flags`; resolves with the URL it prints and what it said on stderr by then. */
async function serve(root: string, flags: string[], env: Record<string, string> = {}) {
  const child = execa(process.execPath, [BIN, "serve", "--http", "--root", root, ...flags], { reject: false, stdin: "ignore", env });
  running.push(child);
  const url = await new Promise<string>((resolve) => child.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString().trim())));
  return { url, origin: new URL(url).origin, child };
}

describe("toolexec serve --console", () => {
  it("is off without the flag", async () => {
    const { origin } = await serve(project().root, []);
    expect((await fetch(`${origin}/console`)).status).toBe(404);
  });

  it("serves the console with the flag, its API behind the token", async () => {
    const { origin, child } = await serve(project().root, ["--console", "--token-env", "CONSOLE_CLI_TOKEN"], { CONSOLE_CLI_TOKEN: "cli-token-1" });
    const page = await fetch(`${origin}/console`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<title>toolexec console</title>");
    expect((await fetch(`${origin}/console/api/tools`)).status).toBe(401);
    const tools = await fetch(`${origin}/console/api/tools`, { headers: { authorization: "Bearer cli-token-1" } });
    expect(((await tools.json()) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name)).toContain("echo");
    child.kill("SIGTERM");
    expect((await child).stderr).toContain(`toolexec serve: console at ${origin}/console`);
  });

  it("needs --http", async () => {
    const result = await execa(process.execPath, [BIN, "serve", "--console", "--root", project().root], { reject: false, stdin: "ignore" });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("toolexec serve: --console applies to --http only");
  });
});
