/**
 * Whole process trees of the processes toolexec starts (script tools, Python workers, stdio MCP
 * servers). Each is spawned detached, so it leads its own process group and a signal to the group
 * reaches what it started (grandchildren, `npx` → node, `bash -c` → the server). Groups still alive
 * when the host process exits are killed on the way out.
 */

const live = new Set<number>();
let exitHookInstalled = false;

/** Send `signal` to every process in the group led by `pid`; a group already gone is fine. */
export function signalProcessGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

/** SIGKILL every process in the group led by `pid`. */
export function killProcessGroup(pid: number): void {
  signalProcessGroup(pid, "SIGKILL");
}

/** Whether any process of the group led by `pid` is left (a zombie still counts). */
export function groupIsAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Remember a live group until `forgetProcessGroup`, so the host's exit can take it down.
 *
 * @example
 * trackProcessGroup(child.pid); // … then, once it exited: forgetProcessGroup(child.pid)
 */
export function trackProcessGroup(pid: number): void {
  live.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const group of live) killProcessGroup(group);
  });
}

export function forgetProcessGroup(pid: number): void {
  live.delete(pid);
}
