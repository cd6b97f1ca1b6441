/**
 * `executor.executeCode`: code mode for hosts, as a call of the `code_execution` tool through the
 * executor's one pipeline (limits, log and events included), with the answer as a `CodeResult`.
 */
import type { PluginContext } from "../../core/plugin-contract.js";
import { CODE_EXECUTION_TOOL_NAME } from "../../core/tool-names.js";
import { toCodeResult, type CodeRequest, type CodeResult } from "./code-result.js";

/** Code mode on the executor. */
export interface CodeExecutionApi {
  /**
   * Run JavaScript in the sandbox (code mode); the same as calling the `code_execution` tool.
   * Resolves to a `CodeResult` for every fault of the run, including code execution being
   * disabled (`TOOL_NOT_FOUND`); throws only after `close()`. See docs/code-execution.md.
   *
   * @example
   * const run = await executor.executeCode({ code: "input.a + input.b", input: { a: 1, b: 2 } });
   * if (run.ok) console.log(run.value); // 3
   */
  executeCode(request: CodeRequest, options?: { signal?: AbortSignal }): Promise<CodeResult>;
}

/** `executeCode` over the executor's `callTool`, which answers even while code execution is off. */
export function createCodeExecutionApi(callTool: PluginContext["callTool"]): CodeExecutionApi {
  return {
    // Not async: a run waiting in a burst keeps one frame fewer (`then` is a promise, not a frame).
    executeCode(request, requestOptions = {}) {
      let args: unknown = request;
      try {
        // A plain object goes as it is: the pipeline snapshots the arguments (a JSON round trip) anyway.
        if (request !== null && typeof request === "object" && Object.getPrototypeOf(request) !== Object.prototype) args = { ...request };
      } catch {
        // A Proxy whose traps throw goes on as it is, for callTool to answer INVALID_INPUT.
      }
      // callTool checks the options as its own: `null`, an unknown key or a signal that is not an
      // AbortSignal is INVALID_OPTIONS (it used to be a TypeError, or silently dropped).
      return callTool(CODE_EXECUTION_TOOL_NAME, args, requestOptions).then(toCodeResult);
    },
  };
}
