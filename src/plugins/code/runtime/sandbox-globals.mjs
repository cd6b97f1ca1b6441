// @ts-check
/**
 * The globals one run's Compartment gets: `input`, `call_tool`, `call_tools`, `tools.<server>.<tool>`,
 * `ToolError`, `describe_tool`, `search_tools`, `console`, and working `Date.now()` / `Math.random()`.
 * Exactly what declarations/sandbox-api-declarations.ts promises the model; nothing else.
 *
 * Every object here is made for one run and reachable from that run only, so it needs no freezing
 * (only ToolError, shared by all runs, is hardened). None hands the sandbox an object of the
 * runtime's own: arguments leave as JSON text, answers come back as freshly parsed JSON.
 */
import { createToolNamespace } from "./tool-namespace.mjs";

/**
 * @typedef {{ ok: true, value: unknown } | { ok: false, error: { code: string, message: string } }} Envelope
 * @typedef {{ server: string, tool: string } | { name: string }} Target
 * @typedef {object} RunBridge
 * @property {(target: Target, args: unknown) => Envelope} callSync
 * @property {(target: Target, args: unknown) => Promise<Envelope>} callAsync
 * @property {(operation: "describe_tool" | "search_tools", argument: unknown) => unknown} meta
 * @property {(level: string, values: unknown[]) => void} log
 */

/** @param {string} message @returns {Envelope} */
const usage = (message) => ({ ok: false, error: { code: "INVALID_INPUT", message } });

/** @param {unknown} value */
const kind = (value) => (value === null ? "null" : Array.isArray(value) ? "an array" : typeof value);

/**
 * @param {unknown} entry one element of call_tools' list
 * @param {number} index
 * @returns {{ target: Target, args: unknown } | Envelope}
 */
function readCallRequest(entry, index) {
  if (entry === null || typeof entry !== "object") return usage(`call_tools: entry ${index} must be { server, tool, args }, got ${kind(entry)}`);
  const { server, tool, name, args } = /** @type {Record<string, unknown>} */ (entry);
  if (typeof server === "string" && typeof tool === "string") return { target: { server, tool }, args };
  if (typeof name === "string") return { target: { name }, args };
  return usage(`call_tools: entry ${index} must have a string server and tool (or a registry name), got ${kind(server)} and ${kind(tool)}`);
}

/**
 * @param {object} options
 * @param {RunBridge} options.bridge
 * @param {ReadonlyArray<[string, string]>} options.catalog server and tool of every callable tool
 * @param {unknown} options.input
 * @param {any} options.ToolError the class, made in a compartment so it extends the powerless Error
 * @param {DateConstructor} options.Date the start compartment's Date, whose now() works
 * @param {Math} options.Math the start compartment's Math, whose random() works
 */
export function createSandboxGlobals({ bridge, catalog, input, ToolError, Date, Math }) {
  /**
   * @param {unknown} first
   * @param {unknown} [second]
   * @param {unknown} [third]
   * @returns {Envelope}
   */
  const call_tool = (first, second, third) => {
    if (typeof first === "string" && typeof second === "string") return bridge.callSync({ server: first, tool: second }, third);
    if (typeof first === "string") return bridge.callSync({ name: first }, second);
    return usage(`call_tool expects (server, tool, args) or (name, args) with string names, got ${kind(first)} first`);
  };

  /** @param {unknown} calls */
  const call_tools = async (calls) => {
    if (!Array.isArray(calls)) throw new TypeError(`call_tools expects an array of { server, tool, args }, got ${kind(calls)}`);
    return Promise.all(
      calls.map((entry, index) => {
        const request = readCallRequest(entry, index);
        return "target" in request ? bridge.callAsync(request.target, request.args) : request;
      }),
    );
  };

  const tools = createToolNamespace(catalog, (server, tool) => {
    const wrapper = async (/** @type {unknown} */ args) => {
      const envelope = await bridge.callAsync({ server, tool }, args);
      if (envelope.ok) return envelope.value;
      throw new ToolError(`${server}.${tool}: ${envelope.error.message}`, { code: envelope.error.code, server, tool });
    };
    Object.defineProperty(wrapper, "name", { value: tool });
    return wrapper;
  });

  /**
   * The host's answer to describe_tool / search_tools: a string or an array, or `{ error }` for a
   * request it refused (a name or query over its limit), thrown here as a ToolError.
   * @param {any} answer
   */
  const metaAnswer = (answer) => {
    if (answer === null || typeof answer !== "object" || Array.isArray(answer)) return answer;
    throw new ToolError(String(answer.error?.message), { code: String(answer.error?.code) });
  };

  /** @param {string} level */
  const logger = (level) => (/** @type {unknown[]} */ ...values) => bridge.log(level, values);
  const console = { log: logger("log"), info: logger("info"), warn: logger("warn"), error: logger("error"), debug: logger("debug") };

  return {
    input,
    call_tool,
    call_tools,
    tools,
    ToolError,
    describe_tool: (/** @type {unknown} */ name) => metaAnswer(bridge.meta("describe_tool", String(name))),
    search_tools: (/** @type {unknown} */ query, /** @type {unknown} */ limit) =>
      metaAnswer(bridge.meta("search_tools", { query: String(query), limit: typeof limit === "number" ? limit : undefined })),
    console,
    Date,
    Math,
  };
}
