/**
 * Values passed under secret-looking argument keys (`password`, `api_key`...) are hidden wherever a
 * tool echoes them: its stderr, its error message, another key of its result, and the cut pieces
 * that tails and shortened lines leave. Before, they reappeared 11 times in one run's log.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { REDACTED } from "../../src/core/log/redact.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { DEFAULT_LOG_PATH, executorOptions, readLogRecords, readLogText } from "./log-test-helpers.js";

const PASSWORD = "Sup3r-s3cret-Pa55phrase";
const API_KEY = "ak_live_6c1f0e9d8b7a";

/** Echoes its secret arguments: under other keys on success; on stderr, cut and whole, when `fail` is set. */
const ECHO_SECRETS_PY = `import json, sys
args = json.load(sys.stdin)
password, key = args["password"], args["auth"]["api_key"]
if args.get("fail"):
    rest = "\\nlogin failed for " + password + " with key " + key + "\\n" + "x" * 290 + password + " (a long last line, cut inside it)\\n"
    # The script plugin keeps the last 8 KiB of stderr: that tail begins 10 characters into the password.
    sys.stderr.write("head " + password + "y" * (8192 + 15 - len("head " + password) - len(rest)) + rest)
    sys.exit(2)
print(json.dumps({"echo": password, "nested": {"seen": [key]}, "note": "used " + password[:9] + "... and " + key[-8:]}))
`;

/** Every 6-character piece of a secret (the shortest piece the log hides). */
const piecesOf = (secret: string) => Array.from({ length: secret.length - 5 }, (_, start) => secret.slice(start, start + 6));

const open: Executor[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((executor) => executor.close()));
});

async function echoProject() {
  const project = createTempProject({ tools: { tools: [toolEntry("echo_secrets", "python", "echo-secrets.py")] } });
  project.write("tools/echo-secrets.py", ECHO_SECRETS_PY);
  const executor = await createExecutor(executorOptions(project));
  open.push(executor);
  return { executor, logDir: project.path(DEFAULT_LOG_PATH) };
}

describe("execution log: secrets passed as arguments", () => {
  it("hides a password echoed under another key of the result, whole and cut", async () => {
    const { executor, logDir } = await echoProject();
    const result = await executor.callTool("echo_secrets", { password: PASSWORD, auth: { api_key: API_KEY } });
    expect(result).toMatchObject({ ok: true, value: { echo: PASSWORD } });
    await executor.close();

    const text = readLogText(logDir);
    for (const piece of [...piecesOf(PASSWORD), ...piecesOf(API_KEY)]) expect(text).not.toContain(piece);
    expect(readLogRecords(logDir)[0]).toMatchObject({
      arguments: { password: REDACTED, auth: REDACTED },
      value: { echo: REDACTED, nested: { seen: [REDACTED] }, note: `used ${REDACTED}... and ${REDACTED}` },
    });
  });

  it("hides a password echoed into stderr and the error message, whole and cut", async () => {
    const { executor, logDir } = await echoProject();
    const result = await executor.callTool("echo_secrets", { password: PASSWORD, auth: { api_key: API_KEY }, fail: true });
    expect(!result.ok && result.error.message).toContain(PASSWORD.slice(0, 7));
    expect(!result.ok && (result.error.details?.stderr as string).startsWith(PASSWORD.slice(10))).toBe(true);
    await executor.close();

    const text = readLogText(logDir);
    for (const piece of [...piecesOf(PASSWORD), ...piecesOf(API_KEY)]) expect(text).not.toContain(piece);
    const error = readLogRecords(logDir)[0]!.error as { message: string; details: { stderr: string } };
    expect(error.message).toMatch(/x{290}\[REDACTED\]\.\.\.$/);
    expect(error.details.stderr).toMatch(/^\[REDACTED\]y+\nlogin failed for \[REDACTED\] with key \[REDACTED\]\n/);
  });
});
