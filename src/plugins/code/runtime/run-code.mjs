// @ts-check
/// <reference types="ses" />
/**
 * One run inside the runtime: a fresh Compartment with this run's globals, the evaluation, the
 * wait for tool calls still under way, the result serialized here under the deadline, and the
 * frames that tell the host about it. Frames (runtime → host, one JSON line each on fd 3):
 *   { t: "log", x, level, text } | { t: "log", x, dropped: true }
 *   { t: "call", x, c, sync, target, args }   a tool call; sync ones block for the host's line
 *   { t: "meta", x, c, op, arg }               describe_tool / search_tools, answered like a sync call
 *   { t: "done", x, ok: true, value } | { t: "done", x, ok: false, error: { code, message, stack? } }
 *   { t: "idle", x }                           nothing of the run is left running (the reuse handshake)
 *   { t: "late", x }                           code of a finished run tried to call out: recycle me
 */
import { formatLogArguments } from "./format-value.mjs";
import { reportThrown, setCurrentSource } from "./error-report.mjs";
import { createSandboxGlobals } from "./sandbox-globals.mjs";
import { serializeValue } from "./serialize-value.mjs";

/**
 * @typedef {object} RunRequest
 * @property {number} x the run's sequence number in this runtime
 * @property {string} source the prepared code (see prepare-source.ts)
 * @property {Array<[number, number, number, number]>} columnEdits
 * @property {number} lastLine
 * @property {string} input JSON text of the input
 * @property {{ version: number, tools: Array<[string, string]> }} [catalog] sent when it changed
 * @property {{ maxResultBytes: number, maxLogBytes: number, maxArgumentBytes: number, maxArgumentNodes?: number }} limits
 */

const FINISHED = { ok: false, error: { code: "CANCELLED", message: "This execution has already finished; its tool calls are refused" } };

/**
 * @param {object} options
 * @param {ReturnType<typeof import("./host-channel.mjs").openHostChannel>} options.channel
 * @param {any} options.ToolError
 * @param {DateConstructor} options.Date
 * @param {Math} options.Math
 */
export function createRunner({ channel, ToolError, Date, Math }) {
  /** @type {Array<[string, string]>} */
  let catalog = [];
  /** The run under way, if any. @type {ReturnType<typeof startRun> | undefined} */
  let active;
  let nextCall = 0;
  /** Async calls waiting for their answer, by call id. @type {Map<number, (envelope: any) => void>} */
  const waiters = new Map();

  /**
   * The next run's Compartment, made while the runtime is idle so a run does not wait for it.
   * Each is used by exactly one run; evaluating "0" builds its evaluator ahead too.
   * @type {Compartment | undefined}
   */
  let spare;
  const prepareCompartment = () => {
    if (spare !== undefined) return;
    spare = new Compartment({ __options__: true });
    spare.evaluate("0");
  };
  const takeCompartment = () => {
    prepareCompartment();
    const compartment = /** @type {Compartment} */ (spare);
    spare = undefined;
    return compartment;
  };
  prepareCompartment();

  /**
   * The finished run whose idle report is due, and the macrotask that sends it. A run the host
   * sent ahead (before that report) arrives in a macrotask too, so the report is then true: it is
   * sent at once, before any frame of the new run, and the host knows from its order that a
   * runtime whose report never came never started the run sent ahead.
   * @type {{ x: number, immediate: ReturnType<typeof setImmediate> } | undefined}
   */
  let idleReport;
  const reportIdle = () => {
    if (idleReport === undefined) return;
    const { x, immediate } = idleReport;
    idleReport = undefined;
    clearImmediate(immediate);
    prepareCompartment();
    channel.send({ t: "idle", x });
  };

  /** @param {RunRequest} request */
  function startRun(request) {
    const { x, limits } = request;
    const state = { finished: false, logBytes: 0, logsDropped: false, pending: new Set() };

    /** @param {{ server: string, tool: string } | { name: string }} target @param {unknown} args @param {boolean} sync */
    const callFrame = (target, args, sync) => {
      const serialized = serializeValue(args === undefined ? {} : args, { maxBytes: limits.maxArgumentBytes, maxNodes: limits.maxArgumentNodes, label: "arguments" });
      if (!serialized.ok) {
        const code = serialized.code === "OUTPUT_TOO_LARGE" ? "INVALID_INPUT" : serialized.code;
        return { failure: { ok: false, error: { code, message: serialized.message } } };
      }
      const c = ++nextCall;
      return { c, text: `{"t":"call","x":${x},"c":${c},"sync":${sync},"target":${JSON.stringify(target)},"args":${serialized.json}}` };
    };

    const late = () => {
      channel.send({ t: "late", x });
      return FINISHED;
    };

    /** @type {import("./sandbox-globals.mjs").RunBridge} */
    const bridge = {
      callSync(target, args) {
        if (state.finished) return late();
        const frame = callFrame(target, args, true);
        if ("failure" in frame) return frame.failure;
        const reply = JSON.parse(channel.request(frame.text));
        if (reply.c !== frame.c) process.exit(70);
        return reply.result;
      },
      callAsync(target, args) {
        if (state.finished) return Promise.resolve(late());
        const frame = callFrame(target, args, false);
        if ("failure" in frame) return Promise.resolve(frame.failure);
        const promise = new Promise((resolve) => waiters.set(frame.c, resolve));
        state.pending.add(promise);
        void promise.then(() => state.pending.delete(promise));
        channel.sendSoon(frame.text);
        return promise;
      },
      meta(op, arg) {
        if (state.finished) return late();
        const c = ++nextCall;
        const reply = JSON.parse(channel.request(JSON.stringify({ t: "meta", x, c, op, arg })));
        if (reply.c !== c) process.exit(70);
        return reply.result;
      },
      log(level, values) {
        if (state.finished) return;
        const room = limits.maxLogBytes - state.logBytes;
        if (room <= 0) {
          if (!state.logsDropped) channel.send({ t: "log", x, dropped: true });
          state.logsDropped = true;
          return;
        }
        let text = formatLogArguments(values);
        if (text.length > room) text = `${text.slice(0, room)}…`;
        state.logBytes += text.length;
        channel.send({ t: "log", x, level, text });
      },
    };

    /** @param {{ ok: true, json: string } | { ok: false, code: string, message: string, stack?: string }} outcome */
    const finish = (outcome) => {
      state.finished = true;
      if (outcome.ok) channel.sendText(`{"t":"done","x":${x},"ok":true,"value":${outcome.json}}`);
      else channel.send({ t: "done", x, ok: false, error: { code: outcome.code, message: outcome.message, ...(outcome.stack ? { stack: outcome.stack } : {}) } });
      // Sent only once no microtask of the run is left (a macrotask proves it): a run that keeps the
      // loop busy never sends it. The next Compartment is made first, so it overlaps the host's own
      // work on the result it just got; a run the host sent ahead sends the report itself (run()).
      idleReport = { x, immediate: setImmediate(() => reportIdle()) };
    };

    const settle = async () => {
      while (state.pending.size > 0) await Promise.allSettled([...state.pending]);
    };

    if (request.catalog) catalog = request.catalog.tools;
    setCurrentSource(request.columnEdits, request.lastLine);
    let completion;
    try {
      const globals = createSandboxGlobals({ bridge, catalog, input: JSON.parse(request.input), ToolError, Date, Math });
      const compartment = takeCompartment();
      for (const [name, value] of Object.entries(globals)) {
        Object.defineProperty(compartment.globalThis, name, { value, writable: true, enumerable: false, configurable: true });
      }
      completion = compartment.evaluate(request.source);
    } catch (error) {
      const report = reportThrown(error, formatLogArguments);
      finish({ ok: false, ...report, code: error instanceof SyntaxError ? "SYNTAX_ERROR" : report.code });
      return { state, log: bridge.log };
    }
    Promise.resolve(completion).then(
      async (value) => {
        await settle();
        const serialized = serializeValue(value, { maxBytes: limits.maxResultBytes, label: "result" });
        finish(serialized.ok ? serialized : { ok: false, code: serialized.code, message: serialized.message });
      },
      async (error) => {
        const report = reportThrown(error, formatLogArguments);
        await settle();
        finish({ ok: false, ...report });
      },
    );
    return { state, log: bridge.log };
  }

  return {
    /** @param {RunRequest} request */
    run(request) {
      reportIdle();
      active = startRun(request);
    },
    /** An async call's answer; `result` is JSON text. @param {{ c: number, result: string }} message */
    reply(message) {
      const resolve = waiters.get(message.c);
      waiters.delete(message.c);
      resolve?.(JSON.parse(message.result));
    },
    /** @param {unknown} reason */
    unhandledRejection(reason) {
      active?.log("error", ["Unhandled promise rejection:", reason]);
    },
  };
}
