// @ts-check
/// <reference types="ses" />
/**
 * Entry of a code runtime: a child process the host spawns with an empty environment, a heap cap
 * and Node's permission model (no file reads beyond these files and SES, no writes, no child
 * processes). It locks down once, then runs each request in a fresh Compartment.
 *
 * Usage: node [flags] runtime-main.mjs <path of ses/dist/ses.cjs> [<its V8 code cache>]
 * Host → runtime: IPC messages { t: "run", ... }, { t: "drop", x } (withdraw a run sent ahead) and { t: "replies", r: [[c, result], ...] } (async
 * call answers, `result` as JSON text), alone or several in order as { t: "batch", m: [message, ...] }.
 * Runtime → host: JSON lines on fd 3 (see run-code.mjs), starting with { t: "ready" }.
 */
import { readFileSync } from "node:fs";
import { Script } from "node:vm";
import { Worker } from "node:worker_threads";

const [sesPath, sesCache] = process.argv.slice(2);
if (sesPath === undefined || typeof process.send !== "function") {
  process.stderr.write("runtime-main.mjs is started by toolexec's code plugin, with an IPC channel and the path of SES\n");
  process.exit(64);
}
// The host kills this process at a run's deadline. If the host itself dies (SIGKILL, OOM) while
// code spins, nothing would: a thread of our own notices the orphaning and ends the process.
// It must be running before any code does (a blocked main thread would keep it from starting), so
// the runtime reports ready only once it is online. Booting a thread's Node takes longer than SES's
// load and lockdown together, so it starts first, on its own thread, while this one does those.
const orphanWatchdog = new Worker(
  `const parent = process.ppid;
  setInterval(() => { if (process.ppid !== parent) process.kill(process.pid, "SIGKILL"); }, 500);`,
  { eval: true, env: {}, stdout: true, stderr: true },
);
const watchdogOnline = new Promise((resolve, reject) => {
  orphanWatchdog.once("online", resolve);
  orphanWatchdog.once("error", reject);
});
// Awaited below, before ready; a failure meanwhile is not an unhandled rejection.
watchdogOnline.catch(() => undefined);
orphanWatchdog.unref();

/** The cache the host wrote (ses-code-cache.ts), if any: V8 checks it and compiles SES itself when it refuses it. */
function readSesCache() {
  try {
    return sesCache === undefined ? undefined : readFileSync(sesCache);
  } catch {
    return undefined;
  }
}
// SES's bundle is a plain script (no require, module or exports), run as one so V8 can take its cached code.
new Script(readFileSync(sesPath, "utf8"), { filename: sesPath, cachedData: readSesCache() }).runInThisContext();

lockdown({
  // `unsafe` would show host paths in stacks; `unsafe-debug` would hand code the realm's prepareStackTrace.
  errorTaming: "safe",
  // The default installs process.exit on an uncaught exception; the host decides about this process.
  errorTrapping: "none",
  unhandledRejectionTrapping: "none",
  reporting: "none",
  overrideTaming: "severe",
  stackFiltering: "verbose",
  consoleTaming: "unsafe",
  domainTaming: "safe",
});

// Imported after lockdown, so their module code sees the hardened intrinsics.
const { openHostChannel } = await import("./host-channel.mjs");
const { installStackFormatter } = await import("./error-report.mjs");
const { createRunner } = await import("./run-code.mjs");

installStackFormatter();
const channel = openHostChannel(3);

// Made inside a compartment so that it extends the powerless shared Error, not the start
// compartment's Error whose prepareStackTrace setter reaches the whole realm.
const ToolError = harden(
  new Compartment({ __options__: true }).evaluate(`(() => {
    class ToolError extends Error {
      constructor(message, details = {}) {
        super(message);
        Object.defineProperty(this, "code", { value: details.code, enumerable: true });
        Object.defineProperty(this, "server", { value: details.server, enumerable: true });
        Object.defineProperty(this, "tool", { value: details.tool, enumerable: true });
      }
    }
    Object.defineProperty(ToolError.prototype, "name", { value: "ToolError" });
    return ToolError;
  })()`),
);

const runner = createRunner({ channel, ToolError, Date: globalThis.Date, Math: globalThis.Math });

/** @param {any} message @param {boolean} [inBatch] */
const onMessage = (message, inBatch = false) => {
  if (message?.t === "batch" && Array.isArray(message.m) && !inBatch) for (const one of message.m) onMessage(one, true);
  else if (message?.t === "run") runner.run(message);
  else if (message?.t === "drop" && typeof message.x === "number") runner.drop(message.x);
  else if (message?.t === "replies" && Array.isArray(message.r)) for (const [c, result] of message.r) runner.reply({ c, result });
  else process.exit(70);
};
process.on("message", (message) => onMessage(message));
// The host is gone: nothing could answer or collect a result.
process.on("disconnect", () => process.exit(0));
process.on("unhandledRejection", (reason) => runner.unhandledRejection(reason));

await watchdogOnline;
channel.send({ t: "ready" });
