/** What a worker may see and use: the environment of its own tools only, its interpreter, and a memory cap. */
import { execFileSync } from "node:child_process";
import { realpathSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pythonProject, startExecutor } from "./python-test-helpers.js";

const SECRET = "TOOLEXEC_TEST_PYTHON_SECRET";
beforeEach(() => {
  process.env[SECRET] = "s3cret";
});
afterEach(() => {
  delete process.env[SECRET];
});

function entry(name: string, functionName: string, extra: object = {}) {
  return { name, function: `text_tools.py:${functionName}`, ...extra };
}

describe("worker environments", () => {
  it("keep host variables out, give a tool its own env, and never share a worker with a tool whose env differs", async () => {
    const env = { TOKEN: `\${${SECRET}}` };
    const executor = await startExecutor(pythonProject([
      entry("read_with_token", "read_variable", { env }),
      entry("pid_with_token", "worker_pid", { env }),
      entry("read_plain", "read_variable"),
      entry("pid_plain", "worker_pid"),
    ]));
    expect(await executor.callTool("read_with_token", { name: "TOKEN" })).toMatchObject({ ok: true, value: "s3cret" });
    expect(await executor.callTool("read_plain", { name: "TOKEN" })).toMatchObject({ ok: true, value: null });
    expect(await executor.callTool("read_plain", { name: SECRET })).toMatchObject({ ok: true, value: null });
    // One after the other: a shared pool would hand its one idle worker to both.
    const withToken = await executor.callTool("pid_with_token", {});
    const plain = await executor.callTool("pid_plain", {});
    expect(withToken.ok && plain.ok && withToken.value !== plain.value).toBe(true);
  });
});

describe("interpreters", () => {
  it("run a tool on its own interpreter (a virtualenv), apart from the tools on the default one", async () => {
    const project = pythonProject([entry("venv_prefix", "python_prefix", { interpreter: ".venv/bin/python" }), entry("default_prefix", "python_prefix")]);
    execFileSync("python3", ["-m", "venv", "--without-pip", project.path(".venv")]);
    const executor = await startExecutor(project);
    const inVenv = await executor.callTool("venv_prefix", {});
    const outside = await executor.callTool("default_prefix", {});
    expect(inVenv.ok && realpathSync(String(inVenv.value))).toBe(realpathSync(project.path(".venv")));
    expect(outside.ok && outside.value).not.toBe(inVenv.ok && inVenv.value);
  });
});

describe("memoryLimitMb", () => {
  it("fails an allocation past the cap with MEMORY_LIMIT, and a fresh worker takes the next call", async () => {
    const executor = await startExecutor(pythonProject([
      entry("allocate", "allocate", { memoryLimitMb: 200 }),
      entry("worker_pid", "worker_pid", { memoryLimitMb: 200 }),
    ]));
    const before = await executor.callTool("worker_pid", {});
    expect(await executor.callTool("allocate", { megabytes: 16 })).toMatchObject({ ok: true, value: 16 });
    const result = await executor.callTool("allocate", { megabytes: 1024 });
    if (result.ok) throw new Error("expected MEMORY_LIMIT");
    expect({ code: result.error.code, message: result.error.message }).toMatchInlineSnapshot(`
      {
        "code": "MEMORY_LIMIT",
        "message": "allocate ran out of memory: its worker may use 200 MiB (memoryLimitMb); a fresh worker takes the next call",
      }
    `);
    const after = await executor.callTool("worker_pid", {});
    expect(before.ok && after.ok && after.value !== before.value).toBe(true);
    expect(await executor.callTool("allocate", { megabytes: 16 })).toMatchObject({ ok: true, value: 16 });
  });
});
