/**
 * One warm `python3` process running toolexec_worker.py: requests go out as frames on its fd 3,
 * answers come back on fd 4 (a 4-byte big-endian length, then JSON), so nothing a tool prints can
 * corrupt the protocol. One request at a time, except requests marked `concurrent` (calls of
 * parallel `async def` tools), which overlap on the worker's event loop; answers carry their
 * request's id, and a call under way may send events (progress, log lines) before its answer.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Readable, Writable } from "node:stream";
import { forgetProcessGroup, killProcessGroup, trackProcessGroup } from "../../core/process-groups.js";

/** The worker script, next to this module in src/ and in dist/ alike (the build copies it). */
export const WORKER_SCRIPT = fileURLToPath(new URL("./worker/toolexec_worker.py", import.meta.url));
/** Bytes of stderr kept (the end of it) to explain a crash. */
const STDERR_TAIL_BYTES = 8 * 1024;
/** A frame larger than this is a broken worker, not an answer. */
const MAX_FRAME_BYTES = 256 * 1024 * 1024;

export interface WorkerAnswer {
  ok: boolean;
  [key: string]: unknown;
}

/** A frame a call sends before its answer: `{ event: "progress", progress, total?, message? }` or `{ event: "log", level, message }`. */
export type WorkerEvent = { event: string; [key: string]: unknown };

export interface WorkerSpawnOptions {
  interpreter: string;
  cwd: string;
  env: Record<string, string>;
  /** The worker's address-space cap in MiB (RLIMIT_AS); absent: none. */
  memoryLimitMb?: number;
  /** Output a tool wrote to the real stdout or stderr outside Python's `print` (C extensions, subprocesses). */
  onOutput?(stream: "stdout" | "stderr", text: string): void;
}

export interface PythonWorker {
  readonly pid: number;
  /** Settles once the worker is ready (its first frame), or rejects with why it could not start. */
  readonly ready: Promise<void>;
  /** Resolves when the process has exited, with how. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Running and not killed. */
  readonly alive: boolean;
  /** The host killed it (a deadline, a cancel, a retirement): its exit is no crash. */
  readonly killed: boolean;
  /** It answered a request: it started healthy. */
  readonly answered: boolean;
  /** The modules (configured paths) it has imported: only others are checked for containment first. */
  readonly imported: Set<string>;
  /** Requests sent and not answered yet. */
  readonly inFlight: number;
  /**
   * Send one request (its `id` is set here: pass a fresh object). Only a request marked
   * `concurrent: true` may join others under way. `onEvent` hears the call's events.
   */
  request(message: Record<string, unknown>, onEvent?: (event: WorkerEvent) => void): Promise<WorkerAnswer>;
  /** Ask the worker to cancel a concurrent request under way (its answer then says CANCELLED). */
  cancel(id: number): void;
  /** The end of what the worker wrote to stderr, to explain a crash. */
  stderrTail(): string;
  kill(): void;
}

/** The last line of a worker's stderr (cut at 300 characters), to explain a crash in one line. */
export function lastLineOf(stderr: string): string {
  const line = stderr.trim().split("\n").pop()?.trim() ?? "";
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

/** Splits the byte stream of fd 4 into frames. */
function frameReader(onFrame: (frame: unknown) => void) {
  let buffered: Buffer = Buffer.alloc(0);
  return (chunk: Buffer) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    while (buffered.length >= 4) {
      const size = buffered.readUInt32BE(0);
      if (size > MAX_FRAME_BYTES) throw new Error(`frame of ${size} bytes`);
      if (buffered.length < 4 + size) return;
      const body = buffered.subarray(4, 4 + size).toString("utf8");
      buffered = buffered.subarray(4 + size);
      onFrame(JSON.parse(body));
    }
  };
}

/**
 * Start a worker. Never throws: a worker that cannot start rejects `ready` and exits.
 *
 * @example
 * const worker = spawnPythonWorker({ interpreter: "python3", cwd: root, env });
 * await worker.ready;
 * const answer = await worker.request({ op: "call", module, function: "word_count", arguments: { text } });
 */
export function spawnPythonWorker(options: WorkerSpawnOptions): PythonWorker {
  const limit = options.memoryLimitMb === undefined ? [] : ["--memory-limit-mb", String(options.memoryLimitMb)];
  const child: ChildProcess = spawn(options.interpreter, [WORKER_SCRIPT, ...limit], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe", "pipe", "pipe"],
  });
  const pid = child.pid ?? -1;
  if (pid > 0) trackProcessGroup(pid);
  let alive = pid > 0;
  let killed = false;
  let answered = false;
  let stderr = "";
  const pending = new Map<number, { resolve(answer: WorkerAnswer): void; reject(error: Error): void; onEvent?: ((event: WorkerEvent) => void) | undefined }>();
  let nextId = 1;
  let readySettled = false;
  let resolveReady!: () => void;
  let rejectReady!: (error: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  ready.catch(() => {}); // a caller that never awaits it must not see an unhandled rejection

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    const finish = (code: number | null, signal: NodeJS.Signals | null, spawnError?: Error) => {
      alive = false;
      if (pid > 0) forgetProcessGroup(pid);
      const how = spawnError ? spawnError.message : signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const error = new Error(`Python worker ${how}`);
      if (!readySettled) {
        readySettled = true;
        rejectReady(error);
      }
      for (const call of pending.values()) call.reject(error);
      pending.clear();
      resolve({ code, signal });
    };
    child.once("exit", (code, signal) => finish(code, signal));
    child.once("error", (error) => finish(null, null, error));
  });

  const input = child.stdio[3] as Writable;
  const send = (message: Record<string, unknown>) => {
    const body = JSON.stringify(message);
    const length = Buffer.byteLength(body);
    const frame = Buffer.allocUnsafe(4 + length); // one buffer, one write
    frame.writeUInt32BE(length, 0);
    frame.write(body, 4, "utf8");
    input.write(frame);
  };
  const output = child.stdio[4] as Readable;
  input.on("error", () => {}); // EPIPE after a crash: the exit handler explains it
  const onFrame = (frame: unknown) => {
    if (!readySettled) {
      readySettled = true;
      resolveReady();
      return;
    }
    const { id } = frame as { id?: number };
    const call = typeof id === "number" ? pending.get(id) : undefined;
    if (call && typeof (frame as { event?: unknown }).event === "string") {
      call.onEvent?.(frame as WorkerEvent);
      return;
    }
    if (typeof id === "number") pending.delete(id);
    answered = true;
    call?.resolve(frame as WorkerAnswer);
  };
  const read = frameReader(onFrame);
  output.on("data", (chunk: Buffer) => {
    try {
      read(chunk);
    } catch (error) {
      stderr += `\n[toolexec] unreadable frame from the worker: ${(error as Error).message}`;
      killProcessGroup(pid);
    }
  });
  child.stdout?.on("data", (chunk: Buffer) => options.onOutput?.("stdout", chunk.toString("utf8")));
  child.stderr?.on("data", (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    stderr = (stderr + text).slice(-STDERR_TAIL_BYTES);
    options.onOutput?.("stderr", text);
  });

  return {
    pid,
    ready,
    imported: new Set(),
    exited,
    get alive() {
      return alive;
    },
    get killed() {
      return killed;
    },
    get answered() {
      return answered;
    },
    get inFlight() {
      return pending.size;
    },
    request(message, onEvent) {
      if (!alive) return Promise.reject(new Error("Python worker is not running"));
      if (pending.size > 0 && message["concurrent"] !== true) return Promise.reject(new Error("Python worker is busy"));
      return new Promise<WorkerAnswer>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject, onEvent });
        message["id"] = id;
        send(message);
      });
    },
    cancel(id) {
      if (alive && pending.has(id)) send({ op: "cancel", target: id });
    },
    stderrTail: () => stderr,
    kill() {
      if (!alive) return; // exited already: a crash stays a crash
      if (pid > 0) killProcessGroup(pid);
      killed = true;
      alive = false; // at once: a killed worker takes no request while it exits
    },
  };
}
