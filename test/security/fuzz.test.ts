/**
 * Fuzz: a few hundred seeded random and adversarial calls to `callTool` and `executeCode` against a
 * real executor (a Python script tool, a host plugin tool whose schema has a catastrophic pattern
 * and the `url` format, code mode on, the execution log on). Every call must settle, within a bound,
 * with success or a documented error code — never a throw — and the host's event loop must stay
 * responsive throughout. The seed is printed on failure: rerun with FUZZ_SEED=<seed> to replay.
 */
import { readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CODES, createExecutor, type Executor } from "../../src/index.js";
import type { ExecutorPlugin } from "../../src/plugin.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { adversarialArguments, adversarialCodeRequest, adversarialName, adversarialOptions, seededRandom, type Random } from "./fuzz-values.js";

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const CASES = 300;
/** Calls in flight at once: enough to exercise queueing, few enough for a loaded 2-core machine. */
const IN_FLIGHT = 6;
/** Every call must settle within this: the tools' and code runs' budgets are 2 s. */
const SETTLE_BOUND_MS = 12_000;
/**
 * The longest the event loop may be blocked. Alone, no generated value blocks it for more than 15 ms
 * on any path; the fuzz alone measures 180–270 ms (garbage collection of the large values, process
 * spawns, 6 calls in flight) and up to ~950 ms beside the rest of the suite on 2 shared cores;
 * with both cores also busy with another process, a quarter of a core stretches that further.
 * Before the linear engine, one `^(a+)+$` value blocked it for seconds (30 a's: far more).
 */
const MAX_LOOP_DELAY_MS = 5_000;

const ECHO_PY = "import json, sys\njson.dump(json.load(sys.stdin), sys.stdout)\n";

/** A host tool that echoes; its schema holds the observed catastrophic pattern and the url format. */
const hostPlugin: ExecutorPlugin = {
  name: "fuzz-host",
  async start() {
    return {
      listTools: () => [
        {
          name: "host_echo",
          description: "Echo the arguments back.",
          inputSchema: { type: "object", properties: { word: { type: "string", pattern: "^(a+)+$" }, link: { type: "string", format: "url" }, count: { type: "integer" } } },
          parallel: true,
          timeoutMs: 2_000,
        },
      ],
      callTool: async (call) => ({ ok: true, value: call.arguments }),
      close: async () => {},
    };
  },
};

let executor: Executor;
let logFile: string;

beforeAll(async () => {
  const project = createTempProject({ tools: { tools: [toolEntry("echo_py", "python", "echo.py", { parallel: true, timeoutMs: 2_000 })] } });
  project.write("tools/echo.py", ECHO_PY);
  logFile = project.path("logs/executions.jsonl");
  executor = await createExecutor({
    root: project.root,
    watch: false,
    logDir: project.path("logs"),
    logger: { debug() {}, info() {}, warn() {}, error() {} },
    plugins: [hostPlugin],
    codeExecution: { enabled: true, poolSize: 2, timeoutMs: 2_000, maxTimeoutMs: 2_000 },
  });
});

afterAll(async () => {
  await executor?.close();
});

type Outcome = { ok: boolean; error?: { code: unknown; message: unknown } };

/** One random call: to `callTool` (mostly with real names) or to `executeCode`. */
function randomCall(random: Random): { label: string; run: () => Promise<Outcome> } {
  const call = executor.callTool as (...args: unknown[]) => Promise<Outcome>;
  const execute = executor.executeCode as (...args: unknown[]) => Promise<Outcome>;
  if (random() < 0.3) {
    const request = adversarialCodeRequest(random);
    const options = adversarialOptions(random);
    return { label: `executeCode(${request.label}, ${options.label})`, run: () => execute(request.value, options.value) };
  }
  const name = adversarialName(random);
  const args = adversarialArguments(random);
  const options = adversarialOptions(random);
  return { label: `callTool(${name.label}, ${args.label}, ${options.label})`, run: () => call(name.value, args.value, options.value) };
}

describe("fuzz", () => {
  it(`settles ${CASES} adversarial calls with documented codes while the host stays responsive (seed ${SEED})`, { timeout: 120_000 }, async () => {
    const random = seededRandom(SEED);
    // The known attacks go first, whatever the seed draws; random calls follow.
    const call = executor.callTool as (...args: unknown[]) => Promise<Outcome>;
    const known = [`${"a".repeat(28)}!`, `${"a".repeat(30)}!`].map((word) => ({ label: `host_echo word ${JSON.stringify(word)}`, run: () => call("host_echo", { word }) }));
    known.push({ label: "host_echo quadratic url", run: () => call("host_echo", { link: `ftp://172.30.3.56${"4.1.6.7:155".repeat(16_515)}\u0000` }) });
    const calls = [...known, ...Array.from({ length: CASES - known.length }, () => randomCall(random))];
    const codes = new Map<string, number>();
    const problems: string[] = [];

    const monitor = monitorEventLoopDelay({ resolution: 5 });
    monitor.enable();
    let next = 0;
    const worker = async () => {
      while (next < calls.length) {
        const { label, run } = calls[next++]!;
        const started = performance.now();
        let timer: NodeJS.Timeout | undefined;
        try {
          const outcome = await Promise.race([
            run(),
            new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`did not settle within ${SETTLE_BOUND_MS} ms`)), SETTLE_BOUND_MS))),
          ]);
          const code = outcome.ok ? "ok" : String(outcome.error?.code);
          codes.set(code, (codes.get(code) ?? 0) + 1);
          if (!outcome.ok && !(ERROR_CODES as readonly unknown[]).includes(outcome.error?.code)) problems.push(`${label}: undocumented code ${code}`);
          if (!outcome.ok && typeof outcome.error?.message !== "string") problems.push(`${label}: message is not a string`);
        } catch (error) {
          problems.push(`${label}: threw ${(error as Error)?.name}: ${(error as Error)?.message} after ${Math.round(performance.now() - started)} ms`);
        } finally {
          clearTimeout(timer);
        }
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    monitor.disable();

    const summary = { seed: SEED, codes: Object.fromEntries([...codes].sort()), loopDelayMaxMs: Math.round(monitor.max / 1e6), loopDelayP99Ms: Math.round(monitor.percentile(99) / 1e6) };
    console.log("fuzz summary", JSON.stringify(summary));
    expect(problems, JSON.stringify(summary)).toEqual([]);
    expect(monitor.max / 1e6, JSON.stringify(summary)).toBeLessThan(MAX_LOOP_DELAY_MS);
    // Every kind of outcome the generators aim at showed up: the fuzz reached past the first checks.
    for (const code of ["ok", "INVALID_INPUT", "INVALID_OPTIONS", "TOOL_NOT_FOUND", "CANCELLED"]) expect(codes.get(code), code).toBeGreaterThan(0);

    // The execution log stayed writable and every line in it is JSON.
    await executor.close();
    const lines = readFileSync(logFile, "utf8").split("\n").filter((line) => line !== "");
    expect(lines.length).toBeGreaterThan(CASES / 2);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });
});
