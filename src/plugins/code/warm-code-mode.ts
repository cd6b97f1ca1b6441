/**
 * Code mode warm on first use: once the first runtime is up, the host does ahead what a first run
 * would otherwise do — load ajv's 2020-12 build and compile the validator of `code_execution`'s
 * arguments, and parse a program (acorn's first parse): ~50 ms of CPU. Each step waits for the host
 * to be idle (its event loop less than half busy over a short sample), so that it never competes with
 * what the host is doing as the runtime comes up — `toolexec serve` loading its MCP server's modules
 * and answering `tools/list`; a run that comes meanwhile does the same work itself. Nothing runs once
 * `signal` aborts (the plugin closed).
 */
import { performance } from "node:perf_hooks";
import { ajvForDialect } from "../../core/schema/ajv-for-dialect.js";
import { schemaDialect } from "../../core/schema/schema-dialect.js";
import { compileSchema } from "../../core/schema/schema-validator.js";
import { codeExecutionInputSchema } from "./declarations/code-execution-input-schema.js";
import { prepareSource } from "./prepare-source.js";

/** The host side of a first run, in steps that each take one turn of the event loop. */
const WARM_STEPS: ReadonlyArray<() => unknown> = [
  () => ajvForDialect(schemaDialect(codeExecutionInputSchema) ?? "2020-12"),
  // The pipeline's own cache (keyed by the schema's text): its first check of the arguments finds it compiled.
  () => compileSchema(codeExecutionInputSchema),
  () => prepareSource("const value = await Promise.resolve(1);\nreturn { value };"),
];

/** The host's load is sampled over this long before each step. */
const IDLE_SAMPLE_MS = 10;
/** A step runs when the event loop was busy for less than this share of the sample. */
const IDLE_SHARE = 0.5;
/** A step runs after this long at the latest, however busy the host is. */
const MAX_WAIT_MS = 1_000;

/** Run `action` once the host's event loop is idle enough, or after MAX_WAIT_MS. */
function whenHostIdle(action: () => void, waited = 0): void {
  const before = performance.eventLoopUtilization();
  setTimeout(() => {
    const busy = performance.eventLoopUtilization(before).utilization;
    if (busy < IDLE_SHARE || waited + IDLE_SAMPLE_MS >= MAX_WAIT_MS) action();
    else whenHostIdle(action, waited + IDLE_SAMPLE_MS);
  }, IDLE_SAMPLE_MS).unref();
}

/**
 * Run the warm-up steps in the background.
 *
 * @example
 * warmCodeMode(closing.signal); // after the first runtime reported ready
 */
export function warmCodeMode(signal: AbortSignal, steps = WARM_STEPS): void {
  const step = (index: number) => {
    if (index >= steps.length || signal.aborted) return;
    whenHostIdle(() => {
      if (signal.aborted) return;
      // A warm-up failure costs nothing: the first run does the same work and reports it.
      try {
        steps[index]!();
      } catch {
        return;
      }
      step(index + 1);
    });
  };
  step(0);
}
