/**
 * Whole process trees of the processes toolexec starts (script tools, Python workers, stdio MCP
 * servers). Each is spawned detached, so it leads its own process group and a signal to the group
 * reaches what it started (grandchildren, `npx` → node, `bash -c` → the server). Groups still alive
 * when the host process exits are killed on the way out.
 */

import { readFileSync, readdirSync } from "node:fs";

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
 * Whether a process of the group led by `pid` still runs. Unlike `groupIsAlive`, zombies do not
 * count: a member orphaned by its killed parent (a server behind `bash -c`) is dead, but stays a
 * zombie for as long as whoever adopts it does not reap it. Linux only looks in /proc; elsewhere
 * any member counts.
 */
export function groupHasRunningMember(pid: number): boolean {
  if (!groupIsAlive(pid)) return false;
  if (process.platform !== "linux") return true;
  for (const entry of readdirSync("/proc")) {
    if (entry.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "latin1");
    } catch {
      continue;
    }
    // "pid (command) state ppid pgrp …": the command may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] !== "Z" && Number(fields[2]) === pid) return true;
  }
  return false;
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
