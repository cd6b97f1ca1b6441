/** What a script's process sees: environment variables, rc files, and which Python runs it. */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { projectWith, startExecutor, toolEntry, type TempProject } from "./script-test-helpers.js";

/** Parse `env` output (NAME=value lines) into an object. */
function parseEnvLines(text: string): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const equals = line.indexOf("=");
    if (equals > 0) variables[line.slice(0, equals)] = line.slice(equals + 1);
  }
  return variables;
}

describe("script tools: environment", () => {
  const hostVariables = { SECRET_HOST_TOKEN: "host-secret-value", BASH_ENV: "", ENV: "" };
  const saved: Record<string, string | undefined> = {};

  beforeEach(() => {
    for (const name of Object.keys(hostVariables)) saved[name] = process.env[name];
    process.env.SECRET_HOST_TOKEN = hostVariables.SECRET_HOST_TOKEN;
  });
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it("hides host variables, passes the tool's env and toolexec's variables (python)", async () => {
    const project = projectWith(
      [toolEntry("env_py", "python", "print-env.py", { env: { API_MODE: "test", SHARED: "tool", TOOLEXEC_TOOL: "spoofed" }, timeoutMs: 5_000 })],
      ["print-env.py"],
      { env: { SHARED: "default", FROM_DEFAULTS: "yes" } },
    );
    const executor = await startExecutor(project);
    const before = Date.now();

    const result = await executor.callTool("env_py", { name: "not exported for python" });

    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const env = result.value as Record<string, string>;
    expect(env).not.toHaveProperty("SECRET_HOST_TOKEN");
    expect(Object.values(env)).not.toContain(hostVariables.SECRET_HOST_TOKEN);
    expect(env).toMatchObject({
      API_MODE: "test",
      SHARED: "tool",
      FROM_DEFAULTS: "yes",
      TOOLEXEC_TOOL: "env_py",
      TOOLEXEC_EXECUTION_ID: result.executionId,
      TOOLEXEC_ROOT: project.root,
      PYTHONUNBUFFERED: "1",
      PATH: process.env.PATH,
    });
    const deadline = Number(env.TOOLEXEC_DEADLINE_MS);
    expect(deadline).toBeGreaterThanOrEqual(before + 5_000);
    expect(deadline).toBeLessThan(Date.now() + 5_000);
    expect(Object.keys(env).filter((name) => name.startsWith("TOOLEXEC_ARG_"))).toEqual([]);
  });

  it("exports top-level arguments to shell tools as TOOLEXEC_ARG_<NAME>", async () => {
    const project = projectWith([toolEntry("env_sh", "shell", "print-env.sh")], ["print-env.sh"]);
    const executor = await startExecutor(project);

    const result = await executor.callTool("env_sh", {
      name: "quarterly report",
      "max-rows": 5,
      nested: { list: [1, 2] },
      flag: true,
      nothing: null,
      huge: "x".repeat(40 * 1024),
    });

    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const env = parseEnvLines(result.value as string);
    const exported = Object.fromEntries(Object.entries(env).filter(([name]) => name.startsWith("TOOLEXEC_ARG_")));
    expect(exported).toEqual({
      TOOLEXEC_ARG_NAME: "quarterly report",
      TOOLEXEC_ARG_MAX_ROWS: "5",
      TOOLEXEC_ARG_NESTED: '{"list":[1,2]}',
      TOOLEXEC_ARG_FLAG: "true",
    });
    expect(env).not.toHaveProperty("SECRET_HOST_TOKEN");
    expect(env).toMatchObject({ TOOLEXEC_TOOL: "env_sh", TOOLEXEC_EXECUTION_ID: result.executionId, TOOLEXEC_ROOT: project.root });
  });

  describe("shell startup files", () => {
    /** A startup file that would leave a marker file and print a line if bash sourced it. */
    function writeStartupFile(project: TempProject): string {
      return project.write("startup.sh", `touch "${project.path("sourced-marker")}"\necho SOURCED\n`);
    }

    it("does not source BASH_ENV or ENV from the host environment", async () => {
      const project = projectWith([toolEntry("env_sh", "shell", "print-env.sh")], ["print-env.sh"]);
      const startup = writeStartupFile(project);
      process.env.BASH_ENV = startup;
      process.env.ENV = startup;
      const executor = await startExecutor(project);

      const result = await executor.callTool("env_sh", {});

      expect(result.ok).toBe(true);
      expect(result.ok && result.value).not.toContain("SOURCED");
      expect(existsSync(project.path("sourced-marker"))).toBe(false);
    });

    it("does not source BASH_ENV or ENV named in the tool's env", async () => {
      const project = projectWith([toolEntry("env_sh", "shell", "print-env.sh")], ["print-env.sh"]);
      const startup = writeStartupFile(project);
      project.write("tools.json", { tools: [toolEntry("env_sh", "shell", "print-env.sh", { env: { BASH_ENV: startup, ENV: startup } })] });
      const executor = await startExecutor(project);

      const result = await executor.callTool("env_sh", {});

      expect(result.ok).toBe(true);
      expect(result.ok && result.value).not.toContain("SOURCED");
      expect(existsSync(project.path("sourced-marker"))).toBe(false);
    });

    it("does not source ~/.bashrc or login profiles", async () => {
      // bash reads these for interactive and login shells, and Debian's bash reads ~/.bashrc for
      // `bash -c` whose stdin is a socket (Node's stdio pipes are socketpairs). A script file run with
      // --noprofile --norc matches none of these; this guards against a change of how bash is started.
      const project = projectWith([], ["print-env.sh"]);
      const home = project.path("home");
      for (const file of [".bashrc", ".bash_profile", ".bash_login", ".profile"]) {
        project.write(`home/${file}`, `touch "${project.path(`sourced-${file}`)}"\necho SOURCED\n`);
      }
      project.write("tools.json", { tools: [toolEntry("env_sh", "shell", "print-env.sh", { env: { HOME: home } })] });
      const executor = await startExecutor(project);

      const result = await executor.callTool("env_sh", {});

      expect(result.ok).toBe(true);
      expect(result.ok && parseEnvLines(result.value as string).HOME).toBe(home);
      expect(result.ok && result.value).not.toContain("SOURCED");
      expect(readdirSync(project.root).filter((name) => name.startsWith("sourced-"))).toEqual([]);
    });

    it("the startup file used above does run when bash sources it (so the checks can fail)", () => {
      const project = projectWith([], []);
      const startup = writeStartupFile(project);
      const output = execFileSync("bash", ["--norc", "-c", "true"], { env: { PATH: process.env.PATH, BASH_ENV: startup }, encoding: "utf8" });
      expect(output).toBe("SOURCED\n");
      expect(existsSync(project.path("sourced-marker"))).toBe(true);
    });
  });
});

describe("script tools: python interpreter", () => {
  /** A minimal virtualenv: pyvenv.cfg next to bin/, and bin/python linking to the real interpreter. */
  function createVirtualEnvironment(project: TempProject, folder: string): void {
    const realPython = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();
    project.write(`${folder}/pyvenv.cfg`, `home = ${path.dirname(realPython)}\ninclude-system-site-packages = false\n`);
    mkdirSync(project.path(`${folder}/bin`));
    symlinkSync(realPython, project.path(`${folder}/bin/python`));
  }

  it("runs the script with the tool's interpreter, a path relative to the project", async () => {
    const project = projectWith(
      [toolEntry("prefix_venv", "python", "print-python-prefix.py", { interpreter: ".venv/bin/python" }), toolEntry("prefix_default", "python", "print-python-prefix.py")],
      ["print-python-prefix.py"],
    );
    createVirtualEnvironment(project, ".venv");
    const executor = await startExecutor(project);

    const [inVenv, byDefault] = await Promise.all([executor.callTool("prefix_venv", {}), executor.callTool("prefix_default", {})]);

    expect(inVenv).toMatchObject({ ok: true, value: { prefix: project.path(".venv") } });
    expect(byDefault.ok).toBe(true);
    expect(byDefault.ok && byDefault.value).not.toEqual({ prefix: project.path(".venv") });
  });

  it("takes the interpreter from defaults.python", async () => {
    const project = projectWith([toolEntry("prefix", "python", "print-python-prefix.py")], ["print-python-prefix.py"], { python: "envs/tools/bin/python" });
    createVirtualEnvironment(project, "envs/tools");
    const executor = await startExecutor(project);

    expect(await executor.callTool("prefix", {})).toMatchObject({ ok: true, value: { prefix: project.path("envs/tools") } });
  });
});
