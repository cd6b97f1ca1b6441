/** Process checks shared by tests that kill process trees. */
import { readFileSync } from "node:fs";

/**
 * Whether `pid` still runs. A zombie counts as dead: it runs nothing and holds no pipe, and in
 * containers whose init reaps orphans only every second or two it lingers long after SIGKILL.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
  try {
    // /proc/<pid>/stat: "pid (comm) state ..."; comm may hold spaces or parentheses, so read after the last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}
