/**
 * Sandbox escape attempts, written from public write-ups: vm2's advisories (prepareStackTrace and
 * CallSite host objects, CVE-2022-36067, patriksimek/vm2#444, gf3/sandbox#65; host errors from
 * stack overflows, vm2#197/#199; Proxy traps in exception handling, CVE-2023-30547; Promise
 * species, CVE-2023-37466; `util.inspect.custom`, CVE-2023-37903; FinalizationRegistry timeout
 * bypass, GHSA-r4fx-v8hh-22mv) and the classic node:vm `this.constructor.constructor('return process')`.
 * Each must end with no host capability reached, the host intact, and later runs unaffected.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runtimeArguments } from "../../src/plugins/code/runtime-command.js";
import { spawnRuntime } from "../../src/plugins/code/runtime-process.js";
import { openCodeExecutor, type CodeSetup } from "./code-test-helpers.js";
import { testToolsPlugin } from "./fixtures/test-tools-plugin.js";

let setup: CodeSetup;
beforeAll(async () => {
  setup = await openCodeExecutor({ plugins: [testToolsPlugin().plugin], codeExecution: { poolSize: 1 } });
});
afterAll(() => setup.close());

/**
 * Defined in every attempt: what `value` leads to through its constructor's constructor, the
 * step every escape above ends with. "inert" (throws) or "no process" are the safe answers.
 */
const PROBE = `
const probe = (value) => {
  try {
    const make = value.constructor.constructor;
    const reached = make("return typeof process === 'undefined' ? undefined : process")();
    return reached === undefined ? "no process" : "PROCESS REACHED";
  } catch (error) {
    return "inert";
  }
};
`;

async function attempt(code: string, input?: unknown): Promise<unknown> {
  const result = await setup.executor.executeCode({ code: `${PROBE}\n${code}`, ...(input === undefined ? {} : { input }) });
  if (!result.ok) throw new Error(`attempt failed: ${result.error.code}: ${result.error.message}`);
  return result.value;
}

const safe = expect.stringMatching(/^(inert|no process)$/);

describe("constructor chains", () => {
  it("no function reachable from the sandbox's own objects or from what toolexec hands it builds host code", async () => {
    const value = await attempt(`
const envelope = call_tool("local", "add", { a: 1, b: 2 });
let toolError;
try { await tools.local.fail({}) } catch (error) { toolError = error }
let overflow;
const down = () => { try { return down() } catch (error) { return error } };
overflow = down();
({
  global: probe(globalThis), object: probe({}), fn: probe(() => 1), asyncFn: probe(async () => 1), generator: probe(function* () {}),
  callTool: probe(call_tool), wrapper: probe(tools.local.add), console: probe(console.log), envelope: probe(envelope),
  envelopeValue: probe(envelope.value), toolError: probe(toolError), toolErrorClass: probe(ToolError),
  errorParent: probe(Object.getPrototypeOf(ToolError)), input: probe(input), date: probe(Date), math: probe(Math.random),
  overflow: probe(overflow), promise: probe(tools.local.add({ a: 1, b: 1 })),
})`, { nested: [1] });
    for (const [name, outcome] of Object.entries(value as Record<string, string>)) expect([name, outcome]).toEqual([name, safe]);
  });

  it("Function and eval build code in the compartment, whose global has no host capability", async () => {
    expect(await attempt("[Function('return typeof globalThis.process')(), (0, eval)('typeof process'), new Compartment().evaluate('typeof process')]")).toEqual(["undefined", "undefined", "undefined"]);
  });
});

describe("stack traces (vm2 CVE-2022-36067, vm2#444, gf3/sandbox#65)", () => {
  it("Error.prepareStackTrace set by code is ignored, so no CallSite object ever reaches it", async () => {
    const value = await attempt(`
let called = false;
const SandboxError = Error;
Error.prepareStackTrace = (error, sites) => { called = true; return sites };
const captured = {};
Error.captureStackTrace(captured);
// CVE-2022-36067 swapped globalThis.Error so that Node called a prepareStackTrace the sandbox owned.
globalThis.Error = { prepareStackTrace: (error, sites) => { called = true; return sites } };
let stack;
try { null.field } catch (error) { stack = error.stack }
[called, typeof stack, typeof SandboxError("x").stack, captured.stack]`);
    expect(value).toEqual([false, "string", "string", ""]);
  });

  it("an error named by a symbol still formats (the 'error generation primitive')", async () => {
    expect(await attempt("const e = new Error('x'); e.name = Symbol('evil'); [typeof e.stack, probe(e)]")).toEqual(["string", safe]);
  });

  it("stacks name only the code's own frames, never host paths", async () => {
    const result = await setup.executor.executeCode({ code: "call_tool('local', 'add', { get a() { throw new Error('inside a getter') }, b: 1 })" });
    expect(JSON.stringify(result)).not.toMatch(/node_modules|runtime-main|run-code|\/src\//);
  });
});

describe("hostile values handed back", () => {
  it("a Proxy whose traps throw or a getter that throws ends the run as an error, run inside the runtime", async () => {
    const proxy = await setup.executor.executeCode({ code: "new Proxy({}, { ownKeys() { throw new Error('trap') }, getPrototypeOf() { throw new Error('trap') } })" });
    expect(proxy).toMatchObject({ ok: false, error: { code: "RUNTIME_ERROR" } });
    const getter = await setup.executor.executeCode({ code: "({ get x() { throw new Error('boom') } })" });
    expect(getter).toMatchObject({ ok: false, error: { code: "RUNTIME_ERROR", message: "Reading result.x threw Error: boom" } });
    const thrown = await setup.executor.executeCode({ code: "throw new Proxy(new Error('x'), { get(target, key) { if (key === 'message') throw new Error('trap'); return Reflect.get(target, key) } })" });
    expect(thrown).toMatchObject({ ok: false, error: { code: "RUNTIME_ERROR" } });
  });

  it("toJSON returning a function, and a promise subclass with a hostile species, get nothing of the host", async () => {
    expect(await setup.executor.executeCode({ code: "({ toJSON: () => () => 1 })" })).toMatchObject({ ok: false, error: { code: "NOT_SERIALIZABLE", message: "result is a function, which JSON cannot hold; call it, or leave it out" } });
    const value = await attempt(`
const seen = [];
class Evil extends Promise { static get [Symbol.species]() { seen.push("species"); return Promise } }
const result = await Evil.resolve(tools.local.add({ a: 2, b: 2 })).then((n) => n);
let frozen;
try { Promise.prototype.then = () => 0; frozen = false } catch { frozen = true }
[result, frozen, seen.every((entry) => entry === "species")]`);
    expect(value).toEqual([4, true, true]);
  });

  it("a custom inspect function is never called by console (vm2 CVE-2023-37903)", async () => {
    const result = await setup.executor.executeCode({
      code: "let got;\nconsole.log({ [Symbol.for('nodejs.util.inspect.custom')]: (...args) => { got = args.length; return 'custom' }, plain: 1 });\ngot === undefined",
    });
    expect(result).toMatchObject({ ok: true, value: true, logs: ["{ plain: 1 }"] });
  });

  it("__proto__ keys in input, arguments and results stay plain keys on both sides", async () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}}');
    const result = await setup.executor.executeCode({
      code: "const echoed = call_tool('local', 'echo', JSON.parse('{\"__proto__\": {\"viaArgs\": 1}}'));\n[({}).polluted, Object.keys(input), echoed.ok, JSON.parse('{\"__proto__\": {\"x\": 1}}')]",
      input,
    });
    expect(result.ok).toBe(true);
    const [polluted, keys, echoed, last] = (result as { value: [unknown, string[], boolean, Record<string, unknown>] }).value;
    expect([polluted, keys, echoed]).toEqual([null, ["__proto__"], true]);
    expect(Object.keys(last)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("tool names that are Object.prototype keys reach no object of the host", async () => {
    const value = await attempt(
      "[call_tool('__proto__', 'x', {}).error.code, call_tool('constructor', {}).error.code, call_tool('toString').error.code, typeof tools.constructor, typeof tools.__proto__]",
    );
    expect(value).toEqual(["TOOL_NOT_FOUND", "TOOL_NOT_FOUND", "TOOL_NOT_FOUND", "undefined", "undefined"]);
  });
});

describe("what the sandbox does not have", () => {
  it("no process, modules, Node globals, timers, network, threads or finalizers", async () => {
    const names = ["process", "require", "module", "exports", "__dirname", "Buffer", "global", "setTimeout", "setInterval", "setImmediate", "queueMicrotask", "fetch", "WebAssembly", "SharedArrayBuffer", "Atomics", "FinalizationRegistry", "WeakRef", "structuredClone", "Worker"];
    const value = await attempt(`${JSON.stringify(names)}.filter((name) => typeof globalThis[name] !== "undefined")`);
    expect(value).toEqual([]);
  });

  it("import() stays unavailable however it is built", async () => {
    const value = await attempt(`
const tries = [() => eval('import("node:fs")'), () => Function('return import("node:fs")')(), () => new Compartment().evaluate('import("node:fs")')];
tries.map((attempt) => { try { attempt(); return "ran" } catch (error) { return error.name } })`);
    expect(value).toEqual(["SyntaxError", "SyntaxError", "SyntaxError"]);
  });

  it("has working Date.now() and Math.random() (endowed on purpose), frozen like every shared object", async () => {
    const value = await attempt("let frozen; try { Date.now = () => 0; frozen = false } catch { frozen = true }\n[Date.now() > 1.7e12, new Date().getFullYear() >= 2024, Math.random() < 1, frozen, typeof lockdown === 'function' && (() => { try { lockdown(); return 'locked again' } catch { return 'refused' } })()]");
    expect(value).toEqual([true, true, true, true, "refused"]);
  });
});

describe("the runtime process (defence in depth)", () => {
  it("runs with an empty environment", async () => {
    if (process.platform !== "linux") return;
    const runtime = spawnRuntime({ memoryLimitMb: 64, maxFrameBytes: 1 << 20 });
    try {
      await runtime.ready;
      const variables = readFileSync(`/proc/${runtime.pid}/environ`, "utf8").split("\0").filter(Boolean).map((entry) => entry.split("=")[0]);
      expect(variables.filter((name) => !name!.startsWith("NODE_CHANNEL_"))).toEqual([]);
    } finally {
      runtime.kill();
      await runtime.exited;
    }
  });

  it("after a simulated full escape, Node's permission model still denies reads, writes and processes, in worker threads too", () => {
    const flags = runtimeArguments(64).filter((argument) => argument.startsWith("--"));
    const script = `
const fs = require("node:fs");
const outcome = {};
const attempt = (name, action) => { try { action(); outcome[name] = "allowed" } catch (error) { outcome[name] = error.code ?? error.message } };
attempt("read", () => fs.readFileSync("/etc/hostname"));
attempt("write", () => fs.writeFileSync(${JSON.stringify(path.join(os.tmpdir(), "toolexec-escape-marker"))}, "x"));
attempt("spawn", () => require("node:child_process").spawnSync("true"));
const { Worker } = require("node:worker_threads");
const worker = new Worker("const { parentPort } = require('node:worker_threads'); try { require('node:fs').readFileSync('/etc/hostname'); parentPort.postMessage('allowed') } catch (error) { parentPort.postMessage(error.code) }", { eval: true });
worker.once("message", (code) => { outcome.readFromWorker = code; console.log(JSON.stringify(outcome)); process.exit(0); });`;
    const child = spawnSync(process.execPath, [...flags, "-e", script], { env: {}, encoding: "utf8", timeout: 10_000 });
    expect(JSON.parse(child.stdout)).toEqual({ read: "ERR_ACCESS_DENIED", write: "ERR_ACCESS_DENIED", spawn: "ERR_ACCESS_DENIED", readFromWorker: "ERR_ACCESS_DENIED" });
  });

  it("leaves the host intact after the attempts", async () => {
    expect(Object.isFrozen(Object.prototype)).toBe(false);
    expect(typeof process.exit).toBe("function");
    expect(await setup.executor.executeCode({ code: "[1, 2].map((n) => n * 2)" })).toMatchObject({ ok: true, value: [2, 4] });
  });
});
