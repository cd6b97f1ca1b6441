/**
 * The resident memory of a runtime, read by the host from outside the process: the watchdog that
 * catches what `--max-old-space-size` does not count (ArrayBuffers, strings' backing stores) and
 * works while the runtime is stuck in a loop.
 */
import { readFileSync } from "node:fs";

/** How often a busy runtime's memory is checked. */
export const MEMORY_CHECK_INTERVAL_MS = 20;

const supported = process.platform === "linux";

/**
 * Bytes resident for `pid` (VmRSS of /proc/<pid>/status), or undefined where that cannot be read
 * (not Linux, or the process is gone). Elsewhere only the heap cap applies.
 *
 * @example
 * const bytes = residentBytes(child.pid!); // 52_428_800
 */
export function residentBytes(pid: number): number | undefined {
  if (!supported) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "latin1");
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}
