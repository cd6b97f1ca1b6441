/**
 * The client side of an MCP stdio server, in place of the SDK's StdioClientTransport, which leaves
 * three things to chance: it spawns the server in our process group (so `bash -c "server; echo"`
 * orphans the server when bash dies), it calls a server that closed stdout but lives on connected
 * forever, and it reports every stray non-JSON line on stdout as an error. Here the server leads its
 * own process group, which is stopped as a whole (EOF, then SIGTERM, then SIGKILL), a closed stdout
 * ends the connection, and stray lines are counted and skipped while a malformed frame still fails.
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { isPlainJsonRpcMessage } from "./plain-json-rpc-message.js";
import { describeJsonRpcProblem, excerpt, MalformedMessageError } from "./session-failure.js";
import { createStderrTail, describeExit } from "./stderr-tail.js";
import { forgetProcessGroup, groupHasRunningMember, signalProcessGroup, trackProcessGroup } from "../../core/process-groups.js";

/** After its stdin closes, a server has this long to exit before its group gets SIGTERM. */
export const STDIO_EOF_GRACE_MS = 500;
/** After SIGTERM, the group has this long before SIGKILL. */
export const STDIO_TERM_GRACE_MS = 500;
/** After SIGKILL, `close()` waits at most this long for the process to be reaped. */
const STDIO_KILL_WAIT_MS = 500;
/** A stdout that ended is blamed on the process only if it has not exited this soon after. */
const STDOUT_END_GRACE_MS = 100;
/** How often a stopping group is looked at. */
const GROUP_POLL_MS = 25;

export interface StdioTransportOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** A line longer than this fails the connection (`LineTooLongError`). */
  maxLineBytes: number;
  /** A line on stdout that is not a JSON-RPC frame (a stray log line); `count` so far on this connection. */
  onStrayLine(line: string, count: number): void;
  /** How `close()` stops the group; default {@link STOP_SCHEDULE}. */
  stopSchedule?: StopSchedule;
}

/** `close()`: EOF, `eofGraceMs`, SIGTERM, `termGraceMs`, SIGKILL, then at most `killWaitMs` for the group to be gone. */
export interface StopSchedule {
  eofGraceMs: number;
  termGraceMs: number;
  killWaitMs: number;
}

export const STOP_SCHEDULE: StopSchedule = { eofGraceMs: STDIO_EOF_GRACE_MS, termGraceMs: STDIO_TERM_GRACE_MS, killWaitMs: STDIO_KILL_WAIT_MS };

export interface StdioTransport extends Transport {
  readonly pid: number | undefined;
  /** Why the connection ended, in words (`exited with code 1: <stderr>`); undefined while it runs. */
  endReason(): string | undefined;
  /** The telling lines of stderr (errors first), for a reason that has no exit to name. */
  stderrSummary(): string | undefined;
}

/** A stdout line longer than the buffer allows. */
export class LineTooLongError extends Error {
  override name = "LineTooLongError";
}

/** A stray stdout line longer than this is not a log line (a reply replaced by garbage, a binary dump). */
const MAX_LOG_LINE_CHARS = 16 * 1024;
/** Control characters no log line holds (tab, ESC for colours and CR are allowed), and U+FFFD from bytes that are not UTF-8. */
const NOT_TEXT = /[\u0000-\u0008\u000e-\u001a\u001c-\u001f\u007f\ufffd]/;

/** Whether a stdout line that is not JSON-RPC can be a log line written to the wrong stream. */
function isLogLine(line: string): boolean {
  return line.length <= MAX_LOG_LINE_CHARS && !NOT_TEXT.test(line);
}

/** The first bytes of a line as JSON (control characters escaped), for a message. */
function firstBytes(line: string): string {
  const shown = JSON.stringify(line.slice(0, 60)).replace(/[\u007f-\u009f\ufffd]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return `${shown}${line.length > 60 ? ` … (${line.length} characters)` : ""}`;
}

const WRITTEN = Promise.resolve();

/** Not unref'd: a host awaiting `close()` must not exit with it unsettled. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * @example
 * const transport = createStdioTransport({ command: "node", args: ["server.js"], env, cwd, maxLineBytes, onStrayLine });
 * await client.connect(transport);
 */
export function createStdioTransport(options: StdioTransportOptions): StdioTransport {
  let child: ChildProcess | undefined;
  let exited = false;
  /** Why it ended, when the server ended it; a close on purpose leaves it undefined. */
  let ended: string | undefined;
  let finished = false;
  let strayLines = 0;
  let buffered: Buffer[] = [];
  let bufferedBytes = 0;
  const stderr = createStderrTail();

  const finish = (reason?: string) => {
    if (finished) return;
    finished = true;
    ended = reason;
    transport.onclose?.();
  };

  const readLine = (line: string) => {
    if (line.trim() === "") return;
    // Only an object starts a JSON-RPC frame; `[INFO] ready` or `42` is a log line on the wrong stream.
    const frame = /^\s*\{/.test(line);
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      // A reply replaced by garbage fails at once (as over HTTP), rather than leave its request
      // waiting out its budget; a log line on the wrong stream is skipped, as the raw SDK client
      // does: failing on it would leave the server unusable.
      if (!frame && !isLogLine(line)) throw new MalformedMessageError(`a line that is neither JSON-RPC nor a log line: ${firstBytes(line)}`);
      if (!frame) return options.onStrayLine(line, ++strayLines);
      throw new MalformedMessageError(`a line that is not JSON (${(error as Error).message}): ${excerpt(line)}`);
    }
    if (typeof value !== "object" || value === null) return options.onStrayLine(line, ++strayLines);
    // The usual message passes a check by hand; the schema judges the rest (and words their errors).
    if (isPlainJsonRpcMessage(value as Record<string, unknown>)) return transport.onmessage?.(value as JSONRPCMessage);
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) throw new MalformedMessageError(`${describeJsonRpcProblem(value)}: ${excerpt(line)}`);
    transport.onmessage?.(parsed.data as JSONRPCMessage);
  };

  const onStdout = (chunk: Buffer) => {
    let start = 0;
    let newline = chunk.indexOf(10);
    while (newline !== -1) {
      const piece = chunk.subarray(start, newline);
      const line = bufferedBytes === 0 ? piece.toString("utf8") : Buffer.concat([...buffered, piece]).toString("utf8");
      buffered = [];
      bufferedBytes = 0;
      try {
        readLine(line);
      } catch (error) {
        transport.onerror?.(error as Error);
      }
      start = newline + 1;
      newline = chunk.indexOf(10, start);
    }
    if (start < chunk.length) {
      buffered.push(chunk.subarray(start));
      bufferedBytes += chunk.length - start;
      if (bufferedBytes > options.maxLineBytes) {
        buffered = [];
        bufferedBytes = 0;
        transport.onerror?.(new LineTooLongError(`a line longer than ${options.maxLineBytes} bytes`));
      }
    }
  };

  const exitReason = (code: number | null, signal: NodeJS.Signals | null) => describeExit(code, signal, stderr.summary(signal !== null));

  const transport: StdioTransport = {
    get pid() {
      return child?.pid;
    },
    endReason: () => ended,
    stderrSummary: () => stderr.summary(false),
    start() {
      if (child) throw new Error("The stdio transport is already started");
      return new Promise<void>((resolve, reject) => {
        // Detached: the server leads its own process group, so stopping it stops what it started.
        const spawned = spawn(options.command, options.args, { env: options.env, cwd: options.cwd, stdio: ["pipe", "pipe", "pipe"], detached: true, windowsHide: true });
        child = spawned;
        spawned.once("error", (error) => {
          reject(error);
          transport.onerror?.(error);
        });
        spawned.once("spawn", () => {
          trackProcessGroup(spawned.pid!);
          resolve();
        });
        spawned.once("exit", (code, signal) => {
          exited = true;
          const reason = exitReason(code, signal);
          // Give the pipes a moment to drain (the last stderr lines name the cause), no more: a
          // grandchild may hold them open for ever.
          spawned.once("close", () => finish(exitReason(code, signal)));
          setTimeout(() => finish(reason), STDOUT_END_GRACE_MS).unref();
        });
        spawned.stdin!.on("error", (error) => transport.onerror?.(error));
        spawned.stdout!.on("data", onStdout);
        spawned.stdout!.on("error", (error) => transport.onerror?.(error));
        spawned.stdout!.once("end", () => {
          setTimeout(() => {
            if (!exited) finish(`closed its stdout but is still running (pid ${spawned.pid})`);
          }, STDOUT_END_GRACE_MS).unref();
        });
        // Reading stderr also keeps a chatty server from blocking on a full pipe.
        spawned.stderr!.on("data", stderr.append);
      });
    },
    send(message) {
      const stdin = child?.stdin;
      if (!stdin || finished) return Promise.reject(new Error("Not connected"));
      // One write per message; a promise of its own only when the pipe is full.
      if (stdin.write(`${JSON.stringify(message)}\n`)) return WRITTEN;
      return new Promise<void>((resolve) => stdin.once("drain", resolve));
    },
    async close() {
      const stopping = child;
      if (!stopping?.pid) return finish();
      const pid = stopping.pid;
      stopping.stdin?.end();
      // A group that outlives its leader (bash exited, its server ignores the signal) is stopped too.
      // Zombies left to a parent that never reaps them are stopped: waiting on them would only spend the schedule.
      const stopped = () => exited && !groupHasRunningMember(pid);
      const waitFor = async (ms: number) => {
        const until = Date.now() + ms;
        while (!stopped() && Date.now() < until) await sleep(GROUP_POLL_MS);
        return stopped();
      };
      const schedule = options.stopSchedule ?? STOP_SCHEDULE;
      if (!(await waitFor(schedule.eofGraceMs))) {
        signalProcessGroup(pid, "SIGTERM");
        if (!(await waitFor(schedule.termGraceMs))) {
          signalProcessGroup(pid, "SIGKILL");
          await waitFor(schedule.killWaitMs);
        }
      }
      forgetProcessGroup(pid);
      stopping.stdout?.off("data", onStdout);
      stopping.stdout?.destroy();
      stopping.stderr?.destroy();
      finish();
    },
  };
  return transport;
}
