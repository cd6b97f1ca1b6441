/**
 * Code mode warm on first use: once the first runtime is up, the host does ahead what a first run
 * would otherwise do — load ajv's 2020-12 build and compile the validator of `code_execution`'s
 * arguments, and parse a program (acorn's first parse): ~50 ms of CPU. Each step waits for the host
 * to be idle (its event loop less than half busy over a short sample), so that it never competes with
 * what the host is doing as the runtime comes up — `toolexec serve` loading its MCP server's modules
 * and answering `tools/list`; a run that comes meanwhile does the same work itself. Nothing runs once
 * `signal` aborts (the plugin closed).
 */
import { ajvForDialect } from "../../core/schema/ajv-for-dialect.js";
import { schemaDialect } from "../../core/schema/schema-dialect.js";
import { compileSchema } from "../../core/schema/schema-validator.js";
import { whenHostIdle } from "../../core/schedule/when-host-idle.js";
import { codeExecutionInputSchema } from "./declarations/code-execution-input-schema.js";
import { prepareSource } from "./prepare-source.js";

/** The host side of a first run, in steps that each take one turn of the event loop. */
const WARM_STEPS: ReadonlyArray<() => unknown> = [
  () => ajvForDialect(schemaDialect(codeExecutionInputSchema) ?? "2020-12"),
  // The pipeline's own cache (keyed by the schema's text): its first check of the arguments finds it compiled.
  () => compileSchema(codeExecutionInputSchema),
  () => prepareSource("const value = await Promise.resolve(1);\nreturn { value };"),
];

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
