/**
 * Kills whole process trees. Scripts are spawned detached, so each is the leader of its own process
 * group; killing the group takes grandchildren too (execa's own `timeout` kills only the direct
 * child and leaves grandchildren holding the pipes). Groups still alive when the host process
 * exits are killed on the way out.
 */

const live = new Set<number>();
let exitHookInstalled = false;

/** SIGKILL every process in the group led by `pid`; a group already gone is fine. */
export function killProcessGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

/** Remember a live group until `forget`, so the host's exit can take it down. */
export function trackProcessGroup(pid: number): void {
  live.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const group of live) killProcessGroup(group);
    });
  }
}

export function forgetProcessGroup(pid: number): void {
  live.delete(pid);
}
