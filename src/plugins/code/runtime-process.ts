/**
 * One code runtime: a child process with an empty environment and its own heap cap. The host
 * sends it requests over IPC and reads its JSON-line frames on fd 3, where it also writes the
 * one-line answers to synchronous tool calls. Nothing the runtime sends is trusted: frames are
 * size-capped and parsed as JSON only, and anything malformed gets the runtime killed.
 */
import { spawn } from "node:child_process";
import os from "node:os";
import type { Readable, Writable } from "node:stream";
import { rememberJsonText } from "../../core/log/json-text.js";
import { createLineReader } from "./line-reader.js";
import { residentBytes } from "./resident-memory.js";
import { runtimeArguments } from "./runtime-command.js";
import { createRuntimeOutbox } from "./runtime-outbox.js";
import { createRuntimeRuns, type RunListener } from "./runtime-runs.js";

/** A runtime that has not locked down by then never will: a machine this slow cannot run code anyway. */
export const RUNTIME_START_TIMEOUT_MS = 60_000;
const STDERR_TAIL_BYTES = 8 * 1024;

export interface RuntimeExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The end of what the process wrote to stderr (V8 prints heap exhaustion there). */
  stderr: string;
}

/** A frame from the runtime: JSON with a string `t` (see runtime/run-code.mjs). */
export type RuntimeFrame = Record<string, unknown> & { t: string };

/**
 * A result's JSON as its `done` frame carried it (run-code.mjs writes `{"t":"done","x":N,"ok":true,"value":…}`),
 * remembered for the execution log: a 250,000-key value is then not serialized again to be logged.
 */
function rememberResultText(frame: RuntimeFrame, line: string): void {
  if (frame.t !== "done" || frame.ok !== true) return;
  const prefix = `{"t":"done","x":${String(frame.x)},"ok":true,"value":`;
  if (line.startsWith(prefix) && line.endsWith("}")) rememberJsonText(frame.value, line.slice(prefix.length, -1), "value");
}

export interface RuntimeProcessOptions {
  memoryLimitMb: number;
  /** Longest frame accepted, in bytes. */
  maxFrameBytes: number;
}

export interface RuntimeProcess {
  readonly id: number;
  readonly pid: number | undefined;
  /** Resolves once the runtime has locked down; rejects if it could not start. */
  readonly ready: Promise<void>;
  /** Resolves once the process is gone and its stderr is read. */
  readonly exited: Promise<RuntimeExit>;
  /** False from the moment it is killed or exits. */
  readonly alive: boolean;
  /** Code of a finished run tried to call out: the runtime must not be reused. */
  readonly tainted: boolean;
  /** Resident bytes when it became ready: the memory watchdog's baseline. */
  readonly baselineBytes: number | undefined;
  /** The tool-catalog version this runtime holds; the host sends a new catalog when it differs. */
  catalogVersion: number;
  /** The next run's sequence number. */
  nextRun(): number;
  /**
   * Send run `run` (its `run` message) and attach `listener` until `detach`: "started" when it
   * starts on arrival; "waiting" when it waits in the runtime behind the run under way (or one
   * whose idle report has not come) and starts right after that report (`listener.started`);
   * "unsent" when the runtime is gone.
   */
  sendRun(run: number, message: object, listener: RunListener): "started" | "waiting" | "unsent";
  /** Stop telling `run`'s listener anything. */
  detach(run: number): void;
  /**
   * Withdraw `run`, sent ahead and not started: the runtime drops it. Should it have started
   * meanwhile (its start report crossed the request), the runtime is killed, so nothing of it runs.
   */
  withdraw(run: number): void;
  /** Withdraw the last run waiting in this runtime, if any; its listener hears `dropped` (or `started`). */
  withdrawWaiting(): boolean;
  /** Whether run `run` (sent here) ever started: false for one withdrawn or dropped. */
  started(run: number): boolean;
  /** Whether a run waits in the runtime behind the one under way (and is not being withdrawn). */
  readonly hasWaiting: boolean;
  /** Every run started here reported idle, and none waits. */
  readonly isIdle: boolean;
  /** Whether the runtime reports run `run` idle within `timeoutMs`. */
  waitIdle(run: number, timeoutMs: number): Promise<boolean>;
  /** Send a message over IPC (with the others of this turn of the event loop, in order); false if the runtime is gone. */
  send(message: object): boolean;
  /** Answer a synchronous call or meta request with a JSON line on fd 3; `resultJson` is JSON text. */
  answer(call: number, resultJson: string): void;
  /**
   * Answer an async call over IPC; `resultJson` is JSON text. Answers made in the same turn of the
   * event loop leave as one message: each message wakes the runtime, and a fan-out's answers often
   * come together.
   */
  reply(call: number, resultJson: string): void;
  residentBytes(): number | undefined;
  kill(): void;
}

let nextId = 1;

/**
 * Spawn a runtime. It locks down in the background; await `ready` before sending a run.
 *
 * @example
 * const runtime = spawnRuntime({ memoryLimitMb: 256, maxFrameBytes: 8 << 20 });
 * await runtime.ready;
 */
export function spawnRuntime(options: RuntimeProcessOptions): RuntimeProcess {
  const child = spawn(process.execPath, runtimeArguments(options.memoryLimitMb), {
    stdio: ["ignore", "ignore", "pipe", "pipe", "ipc"],
    env: {},
    // Not the package folder: a crash must never leave a core file among the runtime's sources.
    cwd: os.tmpdir(),
    serialization: "json",
    windowsHide: true,
  });
  const socket = child.stdio[3] as (Readable & Writable) | null;
  let alive = true;
  let tainted = false;
  let baselineBytes: number | undefined;
  let stderr = "";
  let runs = 0;
  let idleRun = 0;
  const held = createRuntimeRuns(() => kill());
  const idleWaiters = new Map<number, (idle: boolean) => void>();
  const outbox = createRuntimeOutbox((message) => {
    if (!alive || !child.connected) return;
    try {
      child.send(message, (error) => {
        if (error) kill();
      });
    } catch {
      kill();
    }
  });
  let markReady: () => void = () => {};
  let failStart: (error: Error) => void = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failStart = reject;
  });
  // Nobody may be waiting on `ready` when start-up fails (a runtime killed at close).
  ready.catch(() => undefined);
  const startTimer = setTimeout(() => {
    failStart(new Error(`the runtime did not start within ${RUNTIME_START_TIMEOUT_MS} ms`));
    kill();
  }, RUNTIME_START_TIMEOUT_MS);

  function kill() {
    if (!alive) return;
    alive = false;
    for (const resolve of idleWaiters.values()) resolve(false);
    idleWaiters.clear();
    child.kill("SIGKILL");
  }

  const onLine = (line: string) => {
    // A killed runtime's later lines (the rest of a chunk, or a chunk read before its exit) are not acted
    // on: a run behind a withdrawn run found started must not be marked started or served a tool call.
    if (!alive) return;
    let frame: unknown;
    try {
      frame = JSON.parse(line);
    } catch {
      kill();
      return;
    }
    if (frame === null || typeof frame !== "object" || typeof (frame as RuntimeFrame).t !== "string") return kill();
    const { t, x } = frame as RuntimeFrame;
    if (t === "ready") {
      clearTimeout(startTimer);
      if (child.pid !== undefined) baselineBytes = residentBytes(child.pid);
      markReady();
    } else if (t === "idle" && typeof x === "number") {
      idleRun = Math.max(idleRun, x);
      idleWaiters.get(x)?.(true);
      idleWaiters.delete(x);
      held.idle(x);
    } else if (t === "dropped" && typeof x === "number") {
      held.dropped(x);
    } else if (t === "late") {
      tainted = true;
    } else {
      try {
        rememberResultText(frame as RuntimeFrame, line);
        held.frame(frame as RuntimeFrame);
      } catch {
        // A frame the host could not handle: this runtime's run cannot go on.
        kill();
      }
    }
  };
  socket?.on("data", createLineReader(options.maxFrameBytes, onLine, kill));
  socket?.on("error", () => undefined);
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-STDERR_TAIL_BYTES);
  });
  child.on("error", (error) => {
    failStart(error);
    alive = false;
  });

  const exited = new Promise<RuntimeExit>((resolve) => {
    child.on("close", (code, signal) => {
      alive = false;
      clearTimeout(startTimer);
      for (const resolve of idleWaiters.values()) resolve(false);
      idleWaiters.clear();
      const tail = stderr.trim();
      failStart(new Error(`the runtime exited during start-up (${signal ?? `exit code ${code}`})${tail ? `: ${tail.split("\n").slice(-3).join(" ")}` : ""}`));
      const exit = { code, signal, stderr };
      held.exited(exit);
      resolve(exit);
    });
  });

  const runtime: RuntimeProcess = {
    id: nextId++,
    pid: child.pid,
    ready,
    exited,
    get alive() {
      return alive;
    },
    get tainted() {
      return tainted;
    },
    get baselineBytes() {
      return baselineBytes;
    },
    get hasWaiting() {
      return held.hasWaiting;
    },
    get isIdle() {
      return held.isIdle;
    },
    catalogVersion: -1,
    nextRun: () => ++runs,
    sendRun(run, message, listener) {
      if (!alive) return "unsent";
      const startsNow = held.send(run, listener);
      if (runtime.send(message)) return startsNow ? "started" : "waiting";
      held.detach(run);
      kill();
      return "unsent";
    },
    detach: (run) => held.detach(run),
    withdraw(run) {
      if (held.withdraw(run)) runtime.send({ t: "drop", x: run });
    },
    withdrawWaiting() {
      const run = held.withdrawWaiting();
      if (run !== undefined) runtime.send({ t: "drop", x: run });
      return run !== undefined;
    },
    started: (run) => held.started(run),
    waitIdle(run, timeoutMs) {
      if (idleRun >= run) return Promise.resolve(true);
      if (!alive) return Promise.resolve(false);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          idleWaiters.delete(run);
          resolve(false);
        }, timeoutMs);
        idleWaiters.set(run, (idle) => {
          clearTimeout(timer);
          resolve(idle);
        });
      });
    },
    send(message) {
      if (!alive || !child.connected) return false;
      outbox.push(message);
      return true;
    },
    answer(call, resultJson) {
      if (!alive || !socket) return;
      socket.write(`{"c":${call},"result":${resultJson}}\n`);
    },
    reply: (call, resultJson) => outbox.reply(call, resultJson),
    residentBytes: () => (alive && child.pid !== undefined ? residentBytes(child.pid) : undefined),
    kill,
  };
  return runtime;
}
