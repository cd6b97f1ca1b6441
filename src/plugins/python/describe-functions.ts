/**
 * Asks a warm worker about one module in bounded time: the schemas of the functions a config names
 * (`describe`), or the functions the module marks with `@tool` / `@mcp.tool()` (`discover`). A
 * module that fails to import leaves its tools out, with a message naming the file and line: one
 * broken module must not stop the executor, its MCP servers and its other tools. A named function
 * the module lacks (or whose schema cannot be derived) leaves out that function's tools alone.
 */
import type { PythonFunctionEntry } from "../../core/config/load-tools-config.js";
import type { ErrorCode } from "../../core/errors/error-codes.js";
import type { JsonSchema, ToolAnnotations } from "../../core/plugin-contract.js";
import { moduleFields, noteImport, type ModuleRef } from "./contain-module.js";
import type { WorkerAnswer } from "./python-worker.js";
import { WorkerBackoffError, type WorkerPool } from "./worker-pool.js";

/** How long a worker may take to import one module and describe its functions. */
export const DESCRIBE_TIMEOUT_MS = 15_000;

export interface DescribedFunction {
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  /** An `async def` function: when its tool is parallel, its calls overlap on a worker's event loop. */
  async?: boolean;
}

/** A function a module marked, with the metadata of its mark. */
export interface MarkedFunction extends DescribedFunction {
  name: string;
  /** The line of its `def`. */
  line: number | null;
  title?: string;
  parallel?: boolean;
  timeoutMs?: number;
  annotations?: ToolAnnotations;
}

/**
 * Why a module offers no tools; `code` when it is not an import failure (a module leading outside
 * tools/, no worker for now); `transient` when no worker could read it, which says nothing of the module.
 */
export type Failure = { ok: false; message: string; details: Record<string, unknown>; code?: ErrorCode; transient?: boolean };
/** Why one named function cannot be a tool: the module lacks it (`candidates`: its public functions), or its schema cannot be derived (`line`). */
export interface FunctionFailure {
  notFound: boolean;
  message: string;
  line: number | null;
  candidates: string[];
}
export type Description = { ok: true; functions: Map<string, DescribedFunction>; failures: Map<string, FunctionFailure> } | Failure;
/** A marked function whose schema cannot be derived: left out alone. */
export interface MarkedFailure {
  name: string;
  line: number | null;
  message: string;
}
/** A resource, prompt or custom route a FastMCP file declares: workers serve tools only. */
export interface NotServed {
  kind: string;
  name: string;
  line: number | null;
}
export type Discovery = { ok: true; tools: MarkedFunction[]; failures: MarkedFailure[]; notServed: NotServed[] } | Failure;

function label(modulePath: string, line: unknown): string {
  return `tools/${modulePath}${typeof line === "number" ? `:${line}` : ""}`;
}

/** Send one request about a module to an idle worker, killed if it takes too long. Never throws. */
async function askAboutModule(pool: WorkerPool, ref: ModuleRef, root: string, request: Record<string, unknown>): Promise<{ ok: true; answer: WorkerAnswer } | Failure> {
  const { modulePath } = ref;
  const controller = new AbortController();
  let worker;
  try {
    worker = await pool.acquire(controller.signal);
  } catch (error) {
    const code = error instanceof WorkerBackoffError ? "SERVICE_UNAVAILABLE" : "TOOL_FAILED";
    return { ok: false, message: `Cannot read tools/${modulePath}: ${(error as Error).message}`, details: { module: modulePath }, code, transient: true };
  }
  if (!worker) return { ok: false, message: `Cannot read tools/${modulePath}: the plugin closed`, details: { module: modulePath } };
  const target = await moduleFields(worker, ref, root);
  if (!target.ok) {
    pool.release(worker);
    return { ok: false, message: target.error.message, details: target.error.details ?? {}, code: target.error.code };
  }
  const timer = setTimeout(() => worker.kill(), DESCRIBE_TIMEOUT_MS);
  try {
    const answer = await worker.request({ ...request, ...target.fields });
    noteImport(worker, ref.module, answer);
    if (answer.ok) return { ok: true, answer };
    return {
      ok: false,
      message: `${label(modulePath, answer["line"])}: ${String(answer["message"])}`,
      details: { module: modulePath, line: answer["line"] ?? null, traceback: answer["traceback"] ?? null },
    };
  } catch (error) {
    const killed = !worker.alive ? ` (importing it took longer than ${DESCRIBE_TIMEOUT_MS} ms, or the worker died)` : "";
    return { ok: false, message: `tools/${modulePath}: ${(error as Error).message}${killed}`, details: { module: modulePath, stderr: worker.stderrTail() } };
  } finally {
    clearTimeout(timer);
    pool.release(worker);
  }
}

/**
 * Describe the functions that `entries` (of one module) name.
 *
 * @example
 * const description = await describeModule(pool, entriesOfModule, root);
 */
export async function describeModule(pool: WorkerPool, entries: PythonFunctionEntry[], root: string): Promise<Description> {
  const first = entries[0]!;
  const asked = await askAboutModule(pool, first, root, { op: "describe", functions: [...new Set(entries.map((entry) => entry.function))] });
  if (!asked.ok) return asked;
  const failures = new Map<string, FunctionFailure>();
  for (const [name, failure] of Object.entries((asked.answer["failures"] ?? {}) as Record<string, Record<string, unknown>>)) {
    const line = typeof failure["line"] === "number" ? failure["line"] : null;
    const candidates = Array.isArray(failure["candidates"]) ? failure["candidates"].filter((candidate): candidate is string => typeof candidate === "string") : [];
    failures.set(name, { notFound: failure["code"] === "NOT_FOUND", message: String(failure["message"]), line, candidates });
  }
  return { ok: true, functions: new Map(Object.entries(asked.answer["tools"] as Record<string, DescribedFunction>)), failures };
}

/**
 * The functions a module marks, in source order.
 *
 * @example
 * const discovery = await discoverModule(pool, { module: "/project/tools/math_tools.py", modulePath: "math_tools.py" }, "/project");
 */
export async function discoverModule(pool: WorkerPool, entry: ModuleRef, root: string): Promise<Discovery> {
  const asked = await askAboutModule(pool, entry, root, { op: "discover" });
  if (!asked.ok) return asked;
  const failures = Array.isArray(asked.answer["failures"]) ? (asked.answer["failures"] as Array<Record<string, unknown>>) : [];
  return {
    ok: true,
    tools: asked.answer["tools"] as MarkedFunction[],
    failures: failures.map((failure) => ({ name: String(failure["name"]), line: typeof failure["line"] === "number" ? failure["line"] : null, message: String(failure["message"]) })),
    notServed: Array.isArray(asked.answer["notServed"]) ? (asked.answer["notServed"] as NotServed[]) : [],
  };
}
