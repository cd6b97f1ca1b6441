/**
 * Runs one script call: arguments as JSON on stdin, result from stdout, stderr's tail kept for
 * errors. The process tree dies at the deadline, on cancel, or when stdout outgrows its cap.
 */
import { access, stat } from "node:fs/promises";
import path from "node:path";
import { loadExeca } from "../../core/load-execa.js";
import type { ScriptToolEntry } from "../../core/config/load-tools-config.js";
import type { ErrorCode } from "../../core/errors/error-codes.js";
import { abortReasonCode, type PluginResult, type ToolCall } from "../../core/plugin-contract.js";
import { toolError } from "../../core/tool-result.js";
import { PARTIAL_STDOUT_BYTES, parseScriptOutput } from "./parse-script-output.js";
import { forgetProcessGroup, killProcessGroup, trackProcessGroup } from "../../core/process-groups.js";
import { containScript } from "./contain-script.js";
import { resolvePythonInterpreter } from "../../core/python-interpreter.js";
import { ensurePythonEnvironment } from "../../core/python-environments/ensure-python-environment.js";
import { annotateActiveSpan } from "../../core/telemetry/span-context.js";
import { ATTRIBUTE } from "../../core/telemetry/telemetry-names.js";
import { buildScriptEnvironment } from "./script-environment.js";

/** Bytes of stderr kept (the end of it) for error details. */
export const STDERR_TAIL_BYTES = 8 * 1024;
/** How long to wait for pipes to close after the script exits, when an escaped process holds them. */
const PIPE_DRAIN_MS = 250;

export interface RunScriptOptions {
  signal: AbortSignal;
  deadline: number;
  root: string;
  /** Told of the process-group leader's pid while it runs, so the plugin can kill it on close. */
  onSpawn(pid: number): void;
  onSettle(pid: number): void;
}

/** Keeps only the last `limit` bytes written to it. */
function createTail(limit: number) {
  let chunks: Buffer[] = [];
  let size = 0;
  let total = 0;
  return {
    push(chunk: Buffer) {
      chunks.push(chunk);
      size += chunk.length;
      total += chunk.length;
      while (size - chunks[0]!.length >= limit) size -= chunks.shift()!.length;
    },
    text() {
      const joined = Buffer.concat(chunks);
      return joined.subarray(Math.max(0, joined.length - limit)).toString("utf8");
    },
    get total() {
      return total;
    },
    reset() {
      chunks = [];
      size = 0;
    },
  };
}

async function isDirectory(folder: string): Promise<boolean> {
  try {
    return (await stat(folder)).isDirectory();
  } catch {
    return false;
  }
}

function lastLine(text: string): string {
  const lines = text.trim().split("\n");
  const line = lines[lines.length - 1]?.trim() ?? "";
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

async function commandFor(entry: ScriptToolEntry, root: string, script: string): Promise<[string, string[]]> {
  switch (entry.runtime) {
    case "python":
      // A declared environment is built on first use (the call waits; a build past its deadline goes on and serves the next).
      if (entry.pythonEnvironment) return [(await ensurePythonEnvironment(entry.pythonEnvironment, { interpreter: entry.interpreter ?? "python3", cwd: root })).interpreter, [script, ...entry.args]];
      return [await resolvePythonInterpreter(entry.interpreter ?? "python3", root), [script, ...entry.args]];
    case "shell":
      // --noprofile --norc: no rc files; BASH_ENV is not inherited either (see script-environment).
      return ["bash", ["--noprofile", "--norc", script, ...entry.args]];
    case "node":
      return [process.execPath, [script, ...entry.args]];
  }
}

/**
 * Why a run failed, when the cause is a missing script or working folder. Checked only after a
 * failure, so the common path spends no file-system calls: a missing script otherwise shows as
 * the interpreter's "can't open file", and a missing folder as "spawn bash ENOENT", blaming bash.
 */
async function diagnoseMissing(entry: ScriptToolEntry, root: string): Promise<PluginResult | undefined> {
  const scriptLabel = `tools/${entry.scriptPath}`;
  try {
    await access(entry.script);
  } catch {
    return toolError("SCRIPT_MISSING", `Script ${scriptLabel} does not exist (tool "${entry.name}"); create it or fix "script" in tools.json`, {
      script: path.relative(root, entry.script),
    });
  }
  if (!(await isDirectory(entry.cwd))) {
    const cwd = path.relative(root, entry.cwd) || ".";
    return toolError("TOOL_FAILED", `Working directory "${cwd}" of tool "${entry.name}" does not exist; create it or fix "cwd" in tools.json`, { cwd });
  }
  return undefined;
}

/**
 * Why a call was stopped, in words; a call stopped before its spawn must not claim a kill. A
 * timeout says how long the script had (the pipeline adds the call's whole budget, queueing
 * included, as `details.timeoutMs`) and what it last said on stderr: a script stuck on a prompt or
 * a lock usually says so there.
 */
function stoppedMessage(scriptLabel: string, code: ErrorCode, started: boolean, run?: { hadMs: number; stderr: string }): string {
  switch (code) {
    case "TIMEOUT": {
      if (!started) return `${scriptLabel} did not start before its deadline`;
      const said = run ? lastLine(run.stderr) : "";
      const had = run ? ` ${run.hadMs} ms after it started` : "";
      return `${scriptLabel} was still running at the call's deadline,${had}; its process tree was killed${said ? `. Last line of stderr: ${said}` : ""}`;
    }
    case "EXECUTOR_CLOSED":
      return started ? `${scriptLabel} was stopped because the executor closed; its process tree was killed` : `${scriptLabel} was not started: the executor closed`;
    default:
      return started ? `${scriptLabel} was cancelled; its process tree was killed` : `${scriptLabel} was cancelled before it started`;
  }
}

export async function runScript(entry: ScriptToolEntry, call: ToolCall, options: RunScriptOptions): Promise<PluginResult> {
  const { signal } = options;
  const scriptLabel = `tools/${entry.scriptPath}`;
  const notStarted = () => {
    const code = abortReasonCode(signal);
    return toolError(code, stoppedMessage(scriptLabel, code, false));
  };
  if (signal.aborted) return notStarted();
  const loading = loadExeca(); // On the first run (not at import), while the script is located and checked.
  const contained = await containScript(entry, options.root);
  if (!contained.ok) return contained.refusal;
  let command: [string, string[]];
  try {
    command = await commandFor(entry, options.root, contained.realScript);
  } catch (error) {
    return toolError("TOOL_FAILED", (error as Error).message);
  }
  const execa = await loading;
  if (signal.aborted) return notStarted();

  const spawnedAt = Date.now();
  const subprocess = execa(command[0], command[1], {
    cwd: entry.cwd,
    env: buildScriptEnvironment({
      toolEnv: entry.env,
      toolName: entry.name,
      executionId: call.executionId,
      root: options.root,
      deadline: options.deadline,
      ...(entry.runtime === "shell" ? { exportArguments: call.arguments } : {}),
    }),
    extendEnv: false,
    detached: true,
    cleanup: false,
    input: JSON.stringify(call.arguments),
    buffer: false,
    reject: false,
    stripFinalNewline: false,
  });
  const pid = subprocess.pid;
  if (pid !== undefined) {
    trackProcessGroup(pid);
    options.onSpawn(pid);
    annotateActiveSpan(() => ({ [ATTRIBUTE.processPid]: pid, [ATTRIBUTE.processExecutableName]: path.basename(command[0]) }));
  }

  return new Promise<PluginResult>((resolve) => {
    const stdoutChunks: Buffer[] = [];
    let stdoutBytes = 0;
    const stderr = createTail(STDERR_TAIL_BYTES);
    let settled = false;
    let drainTimer: NodeJS.Timeout | undefined;

    const partialStdout = () => {
      const all = Buffer.concat(stdoutChunks);
      return all.subarray(Math.max(0, all.length - PARTIAL_STDOUT_BYTES)).toString("utf8");
    };
    const killTree = () => {
      if (pid !== undefined) killProcessGroup(pid);
    };
    const finish = (result: PluginResult) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      clearTimeout(drainTimer);
      killTree();
      if (pid !== undefined) {
        forgetProcessGroup(pid);
        options.onSettle(pid);
      }
      subprocess.stdout?.destroy();
      subprocess.stderr?.destroy();
      resolve(result);
    };
    const onAbort = () => {
      const code = abortReasonCode(signal);
      const stderrText = stderr.text();
      finish(
        toolError(code, stoppedMessage(scriptLabel, code, true, { hadMs: Math.max(0, Math.round(options.deadline - spawnedAt)), stderr: stderrText }), {
          stdout: partialStdout(),
          stderr: stderrText,
          stdoutBytes,
          stderrBytes: stderr.total,
        }),
      );
    };
    signal.addEventListener("abort", onAbort, { once: true });

    subprocess.stdout?.on("data", (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > entry.maxOutputBytes) {
        finish(
          toolError("OUTPUT_TOO_LARGE", `${scriptLabel} printed more than ${entry.maxOutputBytes} bytes on stdout; it was killed`, {
            maxOutputBytes: entry.maxOutputBytes,
            stderr: stderr.text(),
          }),
        );
      } else {
        stdoutChunks.push(chunk);
      }
    });
    subprocess.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));

    /** The run's answer once the script exited and both pipes closed. */
    const settleFromExit = async (exitCode: number | null, signalName: NodeJS.Signals | null) => {
      if (exitCode !== null) annotateActiveSpan(() => ({ [ATTRIBUTE.processExitCode]: exitCode }));
      const missing = exitCode !== 0 ? await diagnoseMissing(entry, options.root) : undefined;
      if (missing) return finish(missing);
      if (exitCode !== 0) {
        const stderrText = stderr.text();
        const how = signalName ? `was killed by ${signalName}` : `exited with code ${exitCode}`;
        const reason = lastLine(stderrText);
        return finish(
          toolError("TOOL_FAILED", `${scriptLabel} ${how}${reason ? `: ${reason}` : ""}`, {
            exitCode,
            signal: signalName,
            stderr: stderrText,
            stdout: partialStdout(),
          }),
        );
      }
      return finish(parseScriptOutput(entry, Buffer.concat(stdoutChunks).toString("utf8")));
    };

    // The run ends on the process's own events rather than execa's promise, which settles about a
    // millisecond later after its own result processing (measured in bench/script-tools.mjs).
    let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let openPipes = 0;
    const settleIfDone = () => {
      if (exited && openPipes === 0 && !settled) void settleFromExit(exited.code, exited.signal);
    };
    for (const stream of [subprocess.stdout, subprocess.stderr]) {
      if (!stream) continue;
      openPipes++;
      let closed = false;
      const onClosed = () => {
        if (closed) return;
        closed = true;
        openPipes--;
        settleIfDone();
      };
      stream.once("end", onClosed);
      stream.once("close", onClosed);
    }

    // When the script itself exits, whatever it left in its group dies with it, which also closes
    // the pipes any straggler held. A process that escaped the group (setsid) can still hold either
    // pipe, and the run only ends once both close, so after a short drain both are let go.
    subprocess.once("exit", (code, signalName) => {
      exited = { code, signal: signalName };
      killTree();
      drainTimer = setTimeout(() => {
        subprocess.stdout?.destroy();
        subprocess.stderr?.destroy();
      }, PIPE_DRAIN_MS);
      settleIfDone();
    });

    // execa's promise still reports what the events cannot: a process that never started.
    subprocess.then(
      async (result) => {
        if (settled || exited || result.exitCode !== undefined || result.signal !== undefined) return;
        const missing = await diagnoseMissing(entry, options.root);
        const reason = result.code === "ENOENT" ? `"${command[0]}" was not found on the script's PATH` : (result.originalMessage ?? result.shortMessage);
        finish(missing ?? toolError("TOOL_FAILED", `Could not start ${scriptLabel}: ${reason}`, { command: command[0] }));
      },
      (error: unknown) => finish(toolError("TOOL_FAILED", `${scriptLabel} failed: ${(error as Error).message}`)),
    );
  });
}
