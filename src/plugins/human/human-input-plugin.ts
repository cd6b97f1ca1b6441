/** `request_human_input`: lets the agent ask a person; the host answers through a callback. */
import { MAX_TIMEOUT_MS } from "../../core/config/timeout-limits.js";
import { PLUGIN_CONTRACT_VERSION, abortReasonCode, type ExecutorPlugin, type PluginResult, type ToolDefinition } from "../../core/plugin-contract.js";
import { toolError } from "../../core/tool-result.js";
import { HUMAN_INPUT_TOOL_NAME, HUMAN_SERVER } from "../../core/tool-names.js";

export { HUMAN_INPUT_TOOL_NAME };
/** How long a question waits for its answer when the call names no `timeoutMs`. */
export const DEFAULT_HUMAN_INPUT_TIMEOUT_MS = 5 * 60_000;

/** What the host's `onHumanInput` receives. */
export interface HumanInputRequest {
  question: string;
  /** When present, the answer must be one of these. */
  options?: string[];
  executionId: string;
  /** Aborts when the question is withdrawn (timeout, cancel, close): dismiss any prompt then. */
  signal: AbortSignal;
}

/**
 * The host's answerer. Return the person's answer; throw when nobody can answer.
 *
 * @example
 * const executor = await createExecutor({ onHumanInput: async ({ question }) => prompt(question) });
 */
export type HumanInputHandler = (request: HumanInputRequest) => string | Promise<string>;

const definition: ToolDefinition = {
  name: HUMAN_INPUT_TOOL_NAME,
  description:
    "Ask a person a question and wait for the answer. Use it when you need a decision, a confirmation or information only a person has; " +
    "offer `options` when the answer should be one of a few choices.",
  inputSchema: {
    type: "object",
    properties: {
      question: { type: "string", minLength: 1, description: "The question, complete enough to answer without context." },
      options: { type: "array", items: { type: "string", minLength: 1 }, minItems: 1, uniqueItems: true, description: "Allowed answers." },
      timeoutMs: { type: "integer", minimum: 1, maximum: MAX_TIMEOUT_MS, description: `How long to wait, in ms (default ${DEFAULT_HUMAN_INPUT_TIMEOUT_MS}).` },
    },
    required: ["question"],
    additionalProperties: false,
  },
  outputSchema: { type: "string" },
  annotations: { title: "Ask a person", readOnlyHint: true, openWorldHint: true },
  timeoutMs: MAX_TIMEOUT_MS,
  parallel: true,
  // A question waits for a person, not for a machine: it takes no concurrency slot.
  selfScheduled: true,
  server: { name: HUMAN_SERVER, tool: HUMAN_INPUT_TOOL_NAME },
};

function checkAnswer(answer: unknown, options: string[] | undefined): PluginResult {
  if (typeof answer !== "string") return toolError("INVALID_OUTPUT", `The answer must be a string, got ${answer === null ? "null" : typeof answer}`);
  if (options && !options.includes(answer)) return toolError("INVALID_OUTPUT", `The answer ${JSON.stringify(answer)} is not one of the offered options`, { options });
  return { ok: true, value: answer };
}

/** The plugin; the executor adds it when `onHumanInput` is given. */
export function humanInputPlugin(handler: HumanInputHandler): ExecutorPlugin {
  return {
    name: "human",
    contractVersion: PLUGIN_CONTRACT_VERSION,
    async start() {
      /** Questions waiting for an answer, each with the function that withdraws it. */
      const pending = new Map<AbortController, () => void>();
      return {
        listTools: () => [definition],
        async callTool(call, { signal, caller }): Promise<PluginResult> {
          if (call.name !== HUMAN_INPUT_TOOL_NAME) return toolError("TOOL_NOT_FOUND", `The human plugin has no tool "${call.name}"`);
          if (signal.aborted) return toolError(abortReasonCode(signal), "The question was withdrawn before it was asked");
          const args = call.arguments as { question: string; options?: string[]; timeoutMs?: number };
          const timeoutMs = args.timeoutMs ?? DEFAULT_HUMAN_INPUT_TIMEOUT_MS;
          const controller = new AbortController();
          let timer: NodeJS.Timeout | undefined;
          const stopped = new Promise<PluginResult>((resolve) => {
            pending.set(controller, () => {
              controller.abort(new Error("executor closed"));
              resolve(toolError("EXECUTOR_CLOSED", "The executor closed before a person answered"));
            });
            const onAbort = () => {
              const code = abortReasonCode(signal);
              controller.abort(signal.reason);
              resolve(toolError(code, code === "TIMEOUT" ? "No answer from a person before the call's deadline" : "The question was withdrawn before a person answered"));
            };
            if (signal.aborted) onAbort();
            else signal.addEventListener("abort", onAbort, { once: true });
            timer = setTimeout(() => {
              controller.abort(new Error("timeout"));
              resolve(toolError("TIMEOUT", `No answer from a person within ${timeoutMs} ms`, { timeoutMs }));
            }, timeoutMs);
          });
          const answered = (async (): Promise<PluginResult> => {
            // A caller that can ask its own person (an MCP client with elicitation) is asked first.
            if (caller?.ask) {
              try {
                const reply = await caller.ask({ question: args.question, ...(args.options ? { options: [...args.options] } : {}), signal: controller.signal });
                if (reply.action === "accept") return checkAnswer(reply.answer, args.options);
                if (reply.action === "cancel") return toolError("CANCELLED", "The person dismissed the question");
                return toolError("HUMAN_INPUT_UNAVAILABLE", "The person declined to answer", { action: "decline" });
              } catch (error) {
                return toolError("HUMAN_INPUT_UNAVAILABLE", `No human input: the caller could not ask: ${(error as Error)?.message ?? String(error)}`);
              }
            }
            try {
              const answer = await handler({
                question: args.question,
                ...(args.options ? { options: [...args.options] } : {}),
                executionId: call.executionId,
                signal: controller.signal,
              });
              if (typeof answer !== "string") {
                return toolError("INVALID_OUTPUT", `onHumanInput must return a string, got ${answer === null ? "null" : typeof answer}`);
              }
              return checkAnswer(answer, args.options);
            } catch (error) {
              return toolError("HUMAN_INPUT_UNAVAILABLE", `No human input: onHumanInput failed: ${(error as Error)?.message ?? String(error)}`);
            }
          })();
          try {
            return await Promise.race([answered, stopped]);
          } finally {
            clearTimeout(timer);
            pending.delete(controller);
          }
        },
        async close() {
          for (const withdraw of pending.values()) withdraw();
          pending.clear();
        },
      };
    },
  };
}
