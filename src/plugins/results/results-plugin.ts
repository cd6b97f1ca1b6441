/**
 * `read_result`: the built-in tool that pages through a result a model got only the head of. The
 * store it reads is the executor's (the composition root hands the same store to the core, which
 * fills it when it bounds a result); a handle is read only by the session that got it, or the host.
 */
import { ToolexecError } from "../../core/errors/toolexec-error.js";
import { PLUGIN_CONTRACT_VERSION, abortReasonCode, type ExecutorPlugin, type PluginResult, type ToolDefinition } from "../../core/plugin-contract.js";
import { readStoredResult, type ReadResultRequest } from "../../core/results/read-stored-result.js";
import type { ResultStore, StoredResult } from "../../core/results/result-store.js";
import { toolError } from "../../core/tool-result.js";
import { READ_RESULT_TOOL_NAME } from "../../core/tool-names.js";

export { READ_RESULT_TOOL_NAME };

const definition: ToolDefinition = {
  name: READ_RESULT_TOOL_NAME,
  description:
    "Read more of a tool result that was cut short: its last line names a handle such as r_… . " +
    "Give offset (characters) to read the next page of the text, or path (a JSON path such as $.rows) to read one part of a structured result; " +
    "an array at path is read by items from offset. Answers { text | value, offset, nextOffset, total }; nextOffset is null at the end.",
  inputSchema: {
    type: "object",
    properties: {
      handle: { type: "string", pattern: "^r_[A-Za-z0-9_-]{1,64}$", description: "The handle named in the cut result, e.g. r_3kq…" },
      offset: { type: "integer", minimum: 0, description: "Where to start: a character offset in the text, or an item index in an array at path (default 0)." },
      limit: { type: "integer", minimum: 1, description: "Most characters to return (default: the budget the result was cut to)." },
      path: { type: "string", minLength: 1, description: 'A JSON path into a structured result: "$", .name, ["name"] and [index] steps, e.g. "$.rows[3]".' },
    },
    required: ["handle"],
    additionalProperties: false,
  },
  annotations: { title: "Read a result", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  parallel: true,
  // A read from memory: it takes no concurrency slot, and its answer is bounded by its own limit.
  selfScheduled: true,
  results: { maxChars: Number.POSITIVE_INFINITY },
};

/** The store's entry for a handle, or `RESULT_NOT_FOUND` saying why it may be missing. */
function notFound(handle: string): PluginResult {
  return toolError(
    "RESULT_NOT_FOUND",
    `No stored result ${handle}: it expired, was evicted to keep the result store under its byte cap, belongs to another session, or never existed; call the tool again`,
    { handle },
  );
}

/** What the plugin reads from: the executor's store, or one whose reads take time (a shared store). */
export type ResultReader = Pick<ResultStore, "get"> | { get(handle: string, scope: string | undefined): Promise<StoredResult | undefined> };

/** The read, or the abort's code once `signal` aborts (the call's deadline, a cancel, close). */
function readUnlessAborted(store: ResultReader, request: ReadResultRequest, scope: string | undefined, signal: AbortSignal): Promise<PluginResult> {
  if (signal.aborted) return Promise.resolve(toolError(abortReasonCode(signal), "The read was cancelled before it began"));
  return new Promise<PluginResult>((resolve) => {
    const onAbort = () => resolve(toolError(abortReasonCode(signal), "The read was stopped before the store answered"));
    signal.addEventListener("abort", onAbort, { once: true });
    Promise.resolve(store.get(request.handle, scope)).then(
      (entry) => resolve(entry ? readStoredResult(entry, request) : notFound(request.handle)),
      (error: unknown) => resolve(toolError("SERVICE_UNAVAILABLE", `The result store failed: ${(error as Error)?.message ?? String(error)}`)),
    ).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * The plugin; the executor always runs it with its own store.
 *
 * @example
 * const results = resultsPlugin({ store: createResultStore() });
 */
export function resultsPlugin(options: { store: ResultReader }): ExecutorPlugin {
  return {
    name: "results",
    contractVersion: PLUGIN_CONTRACT_VERSION,
    async start() {
      const closing = new AbortController();
      return {
        listTools: () => [definition],
        async callTool(call, { signal, caller }): Promise<PluginResult> {
          if (call.name !== READ_RESULT_TOOL_NAME) return toolError("TOOL_NOT_FOUND", `The results plugin has no tool "${call.name}"`);
          return readUnlessAborted(options.store, call.arguments as unknown as ReadResultRequest, caller?.sessionId, AbortSignal.any([signal, closing.signal]));
        },
        async close() {
          closing.abort(new ToolexecError("EXECUTOR_CLOSED", "The results plugin closed while the read was under way"));
        },
      };
    },
  };
}
