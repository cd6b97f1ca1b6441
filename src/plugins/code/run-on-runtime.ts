/**
 * One run on one runtime, from the host's side: send the request, serve its tool calls and
 * discovery questions, collect its logs, and end it exactly once, whichever comes first: its
 * result, the deadline (the runtime is killed: `TIMEOUT`), the memory watchdog (`MEMORY_LIMIT`),
 * the caller's abort, or the runtime's death. A run sent ahead waits in its runtime behind
 * another caller's run until it starts: its deadline or abort then withdraws it (the runtime
 * drops it and lives on), the runtime's death or a drop the pool asked for leaves it `notStarted`.
 */
import type { ErrorCode } from "../../core/errors/error-codes.js";
import type { RankTools } from "./declarations/index.js";
import type { PreparedSource } from "./prepare-source.js";
import type { RuntimeProcess } from "./runtime-process.js";
import { RuntimeRun } from "./runtime-run.js";
import type { ToolCatalog } from "./tool-catalog.js";
import type { Cancellation } from "./call-cancellation.js";
import type { SandboxEnvelope } from "./tool-dispatch.js";

export interface RunLimits {
  maxResultBytes: number;
  maxLogBytes: number;
  maxArgumentBytes: number;
  memoryLimitMb: number;
}

export interface RunRequest {
  prepared: PreparedSource;
  /** Lines of the submitted code: frames below them are the wrapper's. */
  codeLines: number;
  inputJson: string;
  deadline: number;
  timeoutMs: number;
  /** The call's cancellation (call-cancellation.ts): it kills the runtime. */
  cancellation: Pick<Cancellation, "watch">;
  /** The plugin's own: aborted when it closes. */
  stopSignal?: AbortSignal;
  catalog: ToolCatalog;
  /** The executor's ranking, for `search_tools`; without it, word matching over the catalog. */
  rankTools?: RankTools;
  /** Run one tool call the code asked for (tool-dispatch.ts). */
  dispatch(target: unknown, args: unknown): Promise<SandboxEnvelope>;
  limits: RunLimits;
}

export type RunError = { code: ErrorCode; message: string; stack?: string };

export interface RunOutcome {
  result: { ok: true; value: unknown } | { ok: false; error: RunError };
  logs: string[];
  /** False when the runtime was killed or broke: it must not go back to the pool. */
  reusable: boolean;
  /** The run's sequence number in its runtime (for the idle handshake). */
  run: number;
  /**
   * The run never started: it was sent ahead of another run (or of that run's idle report) and
   * the runtime died first, or dropped it when the pool asked (RuntimePool). Nothing of it ran;
   * it may run elsewhere.
   */
  notStarted?: true;
}

/** The run's promise's settling functions, as `new Promise` hands them out (no closure per run). */
let settleNext: ((outcome: RunOutcome) => void) | undefined;
let failNext: ((error: unknown) => void) | undefined;
const takeSettlers = (resolve: (outcome: RunOutcome) => void, reject: (error: unknown) => void) => {
  settleNext = resolve;
  failNext = reject;
};

/**
 * Run `request` on `runtime` (already acquired and ready). Never rejects.
 *
 * @example
 * const outcome = await runOnRuntime(runtime, request);
 * if (outcome.reusable) pool.release(runtime, outcome.run);
 */
export function runOnRuntime(runtime: RuntimeProcess, request: RunRequest): Promise<RunOutcome> {
  const outcome = new Promise<RunOutcome>(takeSettlers);
  const run = new RuntimeRun(runtime, request, settleNext!);
  const fail = failNext!;
  try {
    run.send();
  } catch (error) {
    fail(error);
  }
  return outcome;
}
