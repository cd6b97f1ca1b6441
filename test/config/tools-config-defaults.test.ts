/** `defaults` fill in what a tool leaves out; a tool's own value always wins. */
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_TIMEOUT_MS } from "../../src/core/config/tools-config-schema.js";
import { loadProjectConfig } from "../../src/config.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";

async function loadTools(tools: object) {
  const project = createTempProject({ tools });
  project.useFixtures("echo.sh", "echo.py");
  const config = await loadProjectConfig({ root: project.root });
  return { project, tools: config.entries.script };
}

describe("defaults", () => {
  it("applies the built-in defaults when tools.json has none", async () => {
    const { project, tools } = await loadTools({ tools: [toolEntry("echo", "shell", "echo.sh")] });
    expect(tools).toEqual([
      {
        name: "echo",
        description: "Test tool echo",
        runtime: "shell",
        script: project.path("tools/echo.sh"),
        scriptPath: "echo.sh",
        args: [],
        inputSchema: { type: "object" },
        parallel: false,
        env: {},
        cwd: project.root,
        maxOutputBytes: DEFAULT_MAX_OUTPUT_BYTES,
      },
    ]);
    expect(DEFAULT_TIMEOUT_MS).toBe(30_000);
    expect(DEFAULT_MAX_OUTPUT_BYTES).toBe(4 * 1024 * 1024);
  });

  it("applies the file's defaults to every tool", async () => {
    const { tools } = await loadTools({
      defaults: { timeoutMs: 1234, parallel: true, maxOutputBytes: 99, python: "python3.11", env: { MODE: "test" } },
      tools: [toolEntry("py", "python", "echo.py"), toolEntry("sh", "shell", "echo.sh")],
    });
    for (const tool of tools) expect(tool).toMatchObject({ timeoutMs: 1234, parallel: true, maxOutputBytes: 99, env: { MODE: "test" } });
    expect(tools[0]?.interpreter).toBe("python3.11");
  });

  it("lets each tool override every default", async () => {
    const { project, tools } = await loadTools({
      defaults: { timeoutMs: 1234, parallel: true, maxOutputBytes: 99, python: "python3.11", env: { MODE: "test", KEEP: "1" } },
      tools: [
        toolEntry("py", "python", "echo.py", {
          timeoutMs: 50,
          parallel: false,
          maxOutputBytes: 7,
          interpreter: "bin/py",
          env: { MODE: "prod", EXTRA: "x" },
          title: "Python echo",
          args: ["--fast"],
          annotations: { readOnlyHint: true },
        }),
      ],
    });
    expect(tools[0]).toMatchObject({
      timeoutMs: 50,
      parallel: false,
      maxOutputBytes: 7,
      interpreter: project.path("bin/py"),
      env: { MODE: "prod", KEEP: "1", EXTRA: "x" },
      title: "Python echo",
      args: ["--fast"],
      annotations: { readOnlyHint: true },
    });
  });

  it("does not share one env object between tools", async () => {
    const { tools } = await loadTools({ defaults: { env: { A: "1" } }, tools: [toolEntry("a", "shell", "echo.sh"), toolEntry("b", "shell", "echo.sh")] });
    expect(tools[0]?.env).not.toBe(tools[1]?.env);
  });

  it("accepts an empty defaults object", async () => {
    const { tools } = await loadTools({ defaults: {}, tools: [toolEntry("echo", "shell", "echo.sh")] });
    // No timeout in the file: the executor's defaultTimeoutMs (DEFAULT_TIMEOUT_MS unless set) applies at call time.
    expect(tools[0]?.timeoutMs).toBeUndefined();
  });

  it("accepts an empty tools list", async () => {
    const { tools } = await loadTools({ tools: [] });
    expect(tools).toEqual([]);
  });
});
