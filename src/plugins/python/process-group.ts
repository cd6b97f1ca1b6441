/**
 * Kills a worker's whole process tree. Workers are spawned detached, so each leads its own process
 * group and killing the group takes anything a tool started too. Groups still alive when the host
 * exits are killed on the way out. (The script plugin keeps its own copy of this idea: plugins do
 * not import each other.)
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

/** Remember a live group until `forgetProcessGroup`, so the host's exit can take it down. */
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
