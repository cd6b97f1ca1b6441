/**
 * `createExecutor` as the main entry exports it: the composition root (src/create-executor.ts, the
 * built-in plugins and the core behind it) loads on the first call, so `import("toolexec")` costs
 * only the entry's own values (errors, names, constants) — a CLI command or a host that never creates
 * an executor does not pay for one.
 */
import type { Executor } from "./executor.js";
import type { ExecutorOptions } from "./executor-options.js";

/**
 * Create an executor for the project at `options.root`. Rejects with `ConfigError` when a config
 * file is missing or invalid, and with `INVALID_OPTIONS` for bad options.
 *
 * @example
 * import { createExecutor } from "toolexec";
 * const executor = await createExecutor({ root: "./my-project" });
 * const result = await executor.callTool("csv_summary", { path: "data/sales.csv" });
 * if (result.ok) console.log(result.value);
 * await executor.close();
 */
export async function createExecutor(options: ExecutorOptions = {}): Promise<Executor> {
  const root = await import("./create-executor.js");
  return root.createExecutor(options);
}
