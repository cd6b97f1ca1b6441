/** tools.json `env`: host variables interpolated, unset ones reported, shell startup variables ignored. */
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor } from "../../src/index.js";
import { loadProjectConfig } from "../../src/config.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { loadConfigError } from "./config-test-helpers.js";

const saved = { ...process.env };
afterEach(() => {
  for (const name of ["TOOLEXEC_TEST_TOKEN", "TOOLEXEC_TEST_EMPTY"]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

describe("tools.json env", () => {
  it("interpolates ${VAR}, ${VAR:-default} and ${env:VAR} from the host, in defaults and per tool", async () => {
    process.env.TOOLEXEC_TEST_TOKEN = "s3cret";
    const project = createTempProject({
      tools: {
        defaults: { env: { BASE: "${env:TOOLEXEC_TEST_TOKEN}" } },
        tools: [toolEntry("echo", "shell", "echo.sh", { env: { TOKEN: "Bearer ${TOOLEXEC_TEST_TOKEN}", REGION: "${TOOLEXEC_TEST_REGION:-eu}", LITERAL: "$${NOT_ME}" } })],
      },
    });
    const config = await loadProjectConfig({ root: project.root });
    expect(config.entries.script[0]?.env).toEqual({ BASE: "s3cret", TOKEN: "Bearer s3cret", REGION: "eu", LITERAL: "${NOT_ME}" });
  });

  it("reports an unset variable with file, path and the fix", async () => {
    delete process.env.TOOLEXEC_TEST_TOKEN;
    const project = createTempProject({ tools: { tools: [toolEntry("echo", "shell", "echo.sh", { env: { TOKEN: "${TOOLEXEC_TEST_TOKEN}" } })] } });
    const error = await loadConfigError(project);
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.issues.map((issue) => `${issue.path}: ${issue.message}`)).toEqual([
      'tools[0].env.TOKEN: Environment variable "TOOLEXEC_TEST_TOKEN" is not set on the host; set it, or give a default with ${TOOLEXEC_TEST_TOKEN:-value}',
    ]);
  });

  it("warns that BASH_ENV and ENV are ignored, and drops them", async () => {
    const project = createTempProject({ tools: { tools: [toolEntry("echo", "shell", "echo.sh", { env: { BASH_ENV: "/tmp/rc", ENV: "/tmp/rc", KEEP: "1" } })] } });
    const config = await loadProjectConfig({ root: project.root });
    expect(config.entries.script[0]?.env).toEqual({ KEEP: "1" });
    expect(config.warnings.map((warning) => `${warning.path}: ${warning.message}`)).toEqual(
      expect.arrayContaining([
        'tools[0].env.BASH_ENV: "BASH_ENV" is ignored: scripts run without shell startup files',
        'tools[0].env.ENV: "ENV" is ignored: scripts run without shell startup files',
      ]),
    );
  });

  it("gives a script the interpolated value, and keeps it out of the execution log", async () => {
    process.env.TOOLEXEC_TEST_TOKEN = "interpolated-secret-value";
    const project = createTempProject({ tools: { tools: [toolEntry("show", "shell", "show.sh", { env: { TOKEN: "${TOOLEXEC_TEST_TOKEN}" } })] } });
    project.write("tools/show.sh", 'printf "%s" "$TOKEN"\n');
    const executor = await createExecutor({ root: project.root, watch: false, logDir: "logs" });
    expect(await executor.callTool("show", {})).toMatchObject({ ok: true, value: "interpolated-secret-value" });
    await executor.close();
    const { readFileSync } = await import("node:fs");
    const log = readFileSync(project.path("logs/executions.jsonl"), "utf8");
    expect(log).not.toContain("interpolated-secret-value");
    expect(log).toContain("[REDACTED]");
  });
});

describe("timeouts", () => {
  it("applies the executor's defaultTimeoutMs to a tool with no timeout of its own", async () => {
    const project = createTempProject({ tools: { tools: [toolEntry("nap", "shell", "nap.sh")] } });
    project.write("tools/nap.sh", "sleep 30\n");
    const executor = await createExecutor({ root: project.root, watch: false, logDir: false, defaultTimeoutMs: 300 });
    expect(await executor.callTool("nap", {})).toMatchObject({ ok: false, error: { code: "TIMEOUT", details: { timeoutMs: 300 } } });
    await executor.close();
  });
});
