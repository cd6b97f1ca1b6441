/** Secrets never reach the log: env values wherever a script prints them, and values under secret-looking keys. */
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor, type Executor, type ExecutorOptions } from "../../src/index.js";
import { REDACTED } from "../../src/core/log/redact.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { DEFAULT_LOG_PATH, executorOptions, readLogRecords, readLogText } from "./log-test-helpers.js";

const API_TOKEN = "tok-9f8e7d6c5b4a3928";
const DB_PASSWORD = "hunter2-correct-horse";
const SHARED_KEY = "shared-default-key-5521";
const PIN = "73914682";

const ECHO_PY = "import json, sys\njson.dump(json.load(sys.stdin), sys.stdout)\n";
/** Returns its env under harmless keys, and mentions the token on stderr. */
const PRINT_ENV_PY = `import json, os, sys
print("using token " + os.environ["API_TOKEN"], file=sys.stderr)
print(json.dumps({"seen": os.environ["API_TOKEN"], "url": "postgres://app:" + os.environ["DB_PASSWORD"] + "@db/app", "shared": os.environ["SHARED_KEY"], "pin_code": int(os.environ["PIN"])}))
`;
/** Prints its env on stdout (plain text) and stderr, then fails. */
const LEAK_AND_FAIL_SH = `echo "partial output with $API_TOKEN"
echo "connecting as app:$DB_PASSWORD" >&2
echo "auth failed for token $API_TOKEN" >&2
exit 1
`;
/** Returns its env as plain text on stdout. */
const PRINT_ENV_SH = 'printf "token=%s\\n" "$API_TOKEN"\n';
/** More than the 8 KiB of stderr the script plugin keeps, so the kept tail begins inside the token. */
const CUT_TAIL_PY = `import os, sys
token = os.environ["API_TOKEN"]
sys.stderr.write("head " + token + "y" * (8192 - 13) + "\\n")
sys.exit(3)
`;
/** A last stderr line longer than the 300 characters the error message keeps, cut inside the token. */
const CUT_LINE_PY = `import os, sys
sys.stderr.write("e" * 290 + os.environ["API_TOKEN"] + " and more\\n")
sys.exit(4)
`;

const open: Executor[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((executor) => executor.close()));
});

async function secretProject(extra: ExecutorOptions = {}) {
  const env = { API_TOKEN, DB_PASSWORD, PIN };
  const project = createTempProject({
    tools: {
      defaults: { env: { SHARED_KEY } },
      tools: [
        toolEntry("echo", "python", "echo.py"),
        toolEntry("print_env", "python", "print-env.py", { env }),
        toolEntry("print_env_sh", "shell", "print-env.sh", { env }),
        toolEntry("leak_and_fail", "shell", "leak-and-fail.sh", { env }),
        toolEntry("cut_tail", "python", "cut-tail.py", { env }),
        toolEntry("cut_line", "python", "cut-line.py", { env }),
      ],
    },
  });
  project.write("tools/echo.py", ECHO_PY);
  project.write("tools/print-env.py", PRINT_ENV_PY);
  project.write("tools/print-env.sh", PRINT_ENV_SH);
  project.write("tools/leak-and-fail.sh", LEAK_AND_FAIL_SH);
  project.write("tools/cut-tail.py", CUT_TAIL_PY);
  project.write("tools/cut-line.py", CUT_LINE_PY);
  const executor = await createExecutor(executorOptions(project, extra));
  open.push(executor);
  return { executor, logDir: project.path(DEFAULT_LOG_PATH) };
}

describe("execution log: env values", () => {
  it("hides env values a script returns, while the caller still gets them", async () => {
    const { executor, logDir } = await secretProject();
    const result = await executor.callTool("print_env", {});
    expect(result).toMatchObject({ ok: true, value: { seen: API_TOKEN, shared: SHARED_KEY, pin_code: Number(PIN) } });
    await executor.close();

    const text = readLogText(logDir);
    for (const secret of [API_TOKEN, DB_PASSWORD, SHARED_KEY, PIN]) expect(text).not.toContain(secret);
    expect(readLogRecords(logDir)[0]!.value).toEqual({ seen: REDACTED, url: `postgres://app:${REDACTED}@db/app`, shared: REDACTED, pin_code: REDACTED });
  });

  it("hides env values in plain-text output", async () => {
    const { executor, logDir } = await secretProject();
    await executor.callTool("print_env_sh", {});
    await executor.close();
    expect(readLogRecords(logDir)[0]!.value).toBe(`token=${REDACTED}`);
  });

  it("hides env values in a failure's message, stderr and partial stdout", async () => {
    const { executor, logDir } = await secretProject();
    const result = await executor.callTool("leak_and_fail", {});
    expect(!result.ok && result.error.message).toContain(API_TOKEN);
    await executor.close();

    const text = readLogText(logDir);
    expect(text).not.toContain(API_TOKEN);
    expect(text).not.toContain(DB_PASSWORD);
    expect(readLogRecords(logDir)[0]!.error).toEqual({
      code: "TOOL_FAILED",
      message: `tools/leak-and-fail.sh exited with code 1: auth failed for token ${REDACTED}`,
      details: {
        exitCode: 1,
        signal: null,
        stderr: `connecting as app:${REDACTED}\nauth failed for token ${REDACTED}\n`,
        stdout: `partial output with ${REDACTED}\n`,
      },
    });
  });

  it("hides the piece of a secret left where stderr's kept tail begins", async () => {
    const { executor, logDir } = await secretProject();
    const result = await executor.callTool("cut_tail", {});
    const stderr = !result.ok ? (result.error.details?.stderr as string) : "";
    // The tail the plugin kept starts with the last 12 characters of the token.
    expect(stderr.startsWith(API_TOKEN.slice(-12))).toBe(true);
    await executor.close();

    const text = readLogText(logDir);
    expect(text).not.toContain(API_TOKEN.slice(-12));
    expect((readLogRecords(logDir)[0]!.error as { details: { stderr: string } }).details.stderr).toMatch(/^\[REDACTED\]y{8179}\n$/);
  });

  it("hides the piece of a secret left where a long error line was cut", async () => {
    const { executor, logDir } = await secretProject();
    const result = await executor.callTool("cut_line", {});
    // The message keeps 297 characters of the line: 290 e's and the token's first 7 characters.
    expect(!result.ok && result.error.message).toContain(`${API_TOKEN.slice(0, 7)}...`);
    await executor.close();

    const record = readLogRecords(logDir)[0]!;
    expect((record.error as { message: string }).message).toMatch(/e{290}\[REDACTED\]\.\.\.$/);
    expect(readLogText(logDir)).not.toContain(API_TOKEN.slice(0, 7));
  });

  it("hides env values that a caller passes in the arguments", async () => {
    const { executor, logDir } = await secretProject();
    await executor.callTool("echo", { note: `my key is ${SHARED_KEY}` });
    await executor.close();
    expect(readLogRecords(logDir)[0]).toMatchObject({ arguments: { note: `my key is ${REDACTED}` }, value: { note: `my key is ${REDACTED}` } });
  });
});

describe("execution log: secret-looking keys", () => {
  const sensitive = {
    password: "p1",
    apiKey: "k1",
    api_key: "k2",
    "x-api-key": "k3",
    token: "t1",
    accessToken: "t2",
    authorization: "Bearer abc",
    client_secret: "s1",
    cookie: "c1",
    Set_Cookie: "c2",
    credentials: { user: "u", pass: "p" },
    session_id: "sid",
  };

  it("redacts them in arguments and results, at any depth, and leaves max_tokens and other keys alone", async () => {
    const { executor, logDir } = await secretProject();
    const args = { ...sensitive, max_tokens: 256, query: "weather", nested: { headers: { Authorization: "Bearer xyz" } }, list: [{ password: "p2" }], password_hint: null };
    const result = await executor.callTool("echo", args);
    expect(result).toMatchObject({ ok: true, value: args });
    await executor.close();

    const redactedKeys = Object.fromEntries(Object.keys(sensitive).map((key) => [key, REDACTED]));
    const expected = { ...redactedKeys, max_tokens: 256, query: "weather", nested: { headers: { Authorization: REDACTED } }, list: [{ password: REDACTED }], password_hint: null };
    const [record] = readLogRecords(logDir);
    expect(record!.arguments).toEqual(expected);
    expect(record!.value).toEqual(expected);
    expect(readLogText(logDir)).not.toMatch(/Bearer|"p1"|"k1"|"t1"|"s1"|"c1"|"sid"/);
  });

  it("adds log.redactKeys: strings match a whole key (any case), RegExps match as written", async () => {
    const { executor, logDir } = await secretProject({ log: { redactKeys: ["ssn", /^internal_/g] } });
    const args = { SSN: "123-45-6789", ssn_last4: "6789", internal_a: 1, internal_b: 2, internal_c: 3, external: 4 };
    await executor.callTool("echo", args);
    await executor.close();
    // A /g pattern keeps state between test() calls; every matching key must still be caught.
    expect(readLogRecords(logDir)[0]!.arguments).toEqual({ SSN: REDACTED, ssn_last4: "6789", internal_a: REDACTED, internal_b: REDACTED, internal_c: REDACTED, external: 4 });
  });

  it("keeps the defaults when redactKeys are added", async () => {
    const { executor, logDir } = await secretProject({ log: { redactKeys: ["ssn"] } });
    await executor.callTool("echo", { password: "p", max_tokens: 1 });
    await executor.close();
    expect(readLogRecords(logDir)[0]!.arguments).toEqual({ password: REDACTED, max_tokens: 1 });
  });
});
