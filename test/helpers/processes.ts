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

/**
 * The pid a process wrote into `file`, once it is there: waits for content, not for the file, since
 * `echo $$ > file` and `open(file, "w")` create it empty an instant before the pid is written (a pid
 * read in between is 0, and `process.kill(0, …)` is the test runner's own group).
 */
export async function waitForPid(file: string, waitMs = 10_000): Promise<number> {
  const until = Date.now() + waitMs;
  while (Date.now() < until) {
    let text = "";
    try {
      text = readFileSync(file, "utf8").trim();
    } catch {
      // Not created yet.
    }
    if (text !== "") return Number(text);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${file} was not written within ${waitMs} ms`);
}

/** Pids of this process's running children: a leak check that trusts no bookkeeping of the code under test. */
export function childPids(): number[] {
  const out = execFileSync("ps", ["-o", "pid=", "--ppid", String(process.pid)], { encoding: "utf8" }).trim();
  // ps itself is a child while it runs; it has exited by now.
  return out === "" ? [] : out.split("\n").map((line) => Number(line.trim())).filter((pid) => isRunning(pid));
}
