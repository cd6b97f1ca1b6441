/**
 * Asks a warm worker for the schemas of the functions a config names, one module at a time, in
 * bounded time. A module that fails to import (or lacks a named function) leaves its tools out,
 * with a message naming the file and line: one broken module must not stop the executor, its MCP
 * servers and its other tools.
 */
import path from "node:path";
import type { PythonFunctionEntry } from "../../core/config/load-tools-config.js";
import type { JsonSchema } from "../../core/plugin-contract.js";
import type { WorkerPool } from "./worker-pool.js";

/** How long a worker may take to import one module and describe its functions. */
export const DESCRIBE_TIMEOUT_MS = 15_000;

export interface DescribedFunction {
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
}

export type Description =
  | { ok: true; functions: Map<string, DescribedFunction> }
  | { ok: false; message: string; details: Record<string, unknown> };

function label(entry: PythonFunctionEntry, line: unknown): string {
  return `tools/${entry.modulePath}${typeof line === "number" ? `:${line}` : ""}`;
}

/**
 * Describe one module's functions (`entries` share the module). Never throws.
 *
 * @example
 * const description = await describeModule(pool, entriesOfModule);
 */
export async function describeModule(pool: WorkerPool, entries: PythonFunctionEntry[]): Promise<Description> {
  const first = entries[0]!;
  const controller = new AbortController();
  let worker;
  try {
    worker = await pool.acquire(controller.signal);
  } catch (error) {
    return { ok: false, message: `Cannot describe tools/${first.modulePath}: ${(error as Error).message}`, details: { module: first.modulePath } };
  }
  if (!worker) return { ok: false, message: `Cannot describe tools/${first.modulePath}: the plugin closed`, details: { module: first.modulePath } };
  const timer = setTimeout(() => worker.kill(), DESCRIBE_TIMEOUT_MS);
  try {
    const answer = await worker.request({ op: "describe", module: first.module, functions: [...new Set(entries.map((entry) => entry.function))] });
    if (!answer.ok) {
      const where = label(first, answer["line"]);
      return {
        ok: false,
        message: `${where}: ${String(answer["message"])}`,
        details: { module: first.modulePath, line: answer["line"] ?? null, traceback: answer["traceback"] ?? null },
      };
    }
    return { ok: true, functions: new Map(Object.entries(answer["tools"] as Record<string, DescribedFunction>)) };
  } catch (error) {
    const killed = !worker.alive ? ` (importing it took longer than ${DESCRIBE_TIMEOUT_MS} ms, or the worker died)` : "";
    return { ok: false, message: `tools/${first.modulePath}: ${(error as Error).message}${killed}`, details: { module: first.modulePath, stderr: worker.stderrTail() } };
  } finally {
    clearTimeout(timer);
    pool.release(worker);
  }
}

/** Group entries by module path, keeping the config's order. */
export function entriesByModule(entries: PythonFunctionEntry[]): Map<string, PythonFunctionEntry[]> {
  const byModule = new Map<string, PythonFunctionEntry[]>();
  for (const entry of entries) {
    const key = path.resolve(entry.module);
    byModule.set(key, [...(byModule.get(key) ?? []), entry]);
  }
  return byModule;
}
