/** Process checks shared by tests that kill process trees. */
import { execFileSync } from "node:child_process";
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

/** Pids of this process's running children: a leak check that trusts no bookkeeping of the code under test. */
export function childPids(): number[] {
  const out = execFileSync("ps", ["-o", "pid=", "--ppid", String(process.pid)], { encoding: "utf8" }).trim();
  // ps itself is a child while it runs; it has exited by now.
  return out === "" ? [] : out.split("\n").map((line) => Number(line.trim())).filter((pid) => isRunning(pid));
}
