/**
 * Runs the built `toolexec` binary in a real pseudo-terminal (python3's pty module), as a person at a
 * terminal would: stdout and stderr are the terminal, 120 columns wide. The raw bytes it writes
 * (carriage returns, erase sequences) come back as they arrive.
 */
import { spawn } from "node:child_process";
import { BIN } from "./run-cli.js";

/** Forks a pty of 24x120, runs argv in it, relays its output as it comes, and exits with its exit code. */
const DRIVER = `
import fcntl, os, pty, struct, sys, termios
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))
    os.execv(sys.argv[1], sys.argv[1:])
while True:
    try:
        data = os.read(fd, 65536)
    except OSError:
        break
    if not data:
        break
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
`;

export interface TerminalRun {
  /** What the terminal showed so far. */
  output(): string;
  /** Resolves when the command ended. */
  done: Promise<{ code: number; output: string }>;
}

export function runInTerminal(args: string[], options: { cwd?: string } = {}): TerminalRun {
  const child = spawn("python3", ["-c", DRIVER, process.execPath, BIN, ...args], { cwd: options.cwd, env: { ...process.env, TERM: "xterm-256color" }, stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => (output += chunk));
  const done = new Promise<{ code: number; output: string }>((resolve) => child.once("close", (code) => resolve({ code: code ?? 1, output })));
  return { output: () => output, done };
}
