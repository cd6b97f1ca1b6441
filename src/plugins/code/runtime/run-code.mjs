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
 *   { t: "dropped", x }                        a run sent ahead was withdrawn before it started
 * Runs the host sends while one is under way wait here, in order, and each starts right after the
 * idle report of the run before it, without a host round trip in between; `drop` withdraws one that
 * has not started.
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
 * @property {number} deadline when the run's time is up (ms since the epoch; this machine's clock, as the host's)
 * @property {string} input JSON text of the input
 * @property {{ version: number, tools: Array<[string, string]> }} [catalog] sent when it changed
 * @property {{ maxResultBytes: number, maxLogBytes: number, maxArgumentBytes: number, maxArgumentNodes?: number }} limits
 */

const FINISHED = { ok: false, error: { code: "CANCELLED", message: "This execution has already finished; its tool calls are refused" } };
/**
 * Most runs that may wait here. The host sends at most three ahead (runtime-pool.ts, MAX_RUNS_AHEAD);
 * more means a host that lost count, and this runtime's state can no longer be trusted.
 */
const MAX_RUNS_WAITING = 8;

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
  /** Runs sent ahead while `active` was under way, in the order they start. @type {RunRequest[]} */
  const waiting = [];
  const activeFinished = () => active === undefined || active.state.finished;
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
  /** The spare, or a new one when a run follows another at once (its evaluation then builds the evaluator). */
  const takeCompartment = () => {
    const compartment = spare ?? new Compartment({ __options__: true });
    spare = undefined;
    return compartment;
  };
  prepareCompartment();

  /**
   * The finished run whose idle report is due, and the macrotask that sends it. A run the host
   * sent ahead (before that report) arrives in a macrotask too, so the report is then true: it is
   * sent at once, before any frame of the new run, and the host knows from its order that a
   * runtime whose report never came never started the run sent ahead.
   * @type {{ x: number, immediate: ReturnType<typeof setImmediate>, polled?: boolean } | undefined}
   */
  let idleReport;
  /** `prepare`: make the next Compartment first (nothing waits here, so it is made while the host works). */
  const reportIdle = (prepare = true) => {
    if (idleReport === undefined) return;
    const { x, immediate } = idleReport;
    idleReport = undefined;
    clearImmediate(immediate);
    if (prepare) prepareCompartment();
    channel.send({ t: "idle", x });
  };
  /** Tell the host run `x` will never start: before the idle report, which would otherwise mean it started. @param {RunRequest} request */
  const dropQueued = (request) => {
    if (request.catalog) catalog = request.catalog.tools;
    channel.send({ t: "dropped", x: request.x });
  };
  /** Report the finished run idle, then start the first run waiting behind it (the host counts on this order). */
  const startQueued = () => {
    // Those whose deadline passed while they waited never start, and the host answers them (`dropped` before the idle report).
    const now = Date.now();
    while (waiting.length > 0 && now >= /** @type {RunRequest} */ (waiting[0]).deadline) dropQueued(/** @type {RunRequest} */ (waiting.shift()));
    const next = waiting.shift();
    if (next === undefined) return reportIdle();
    reportIdle(false);
    active = startRun(next);
  };
  const afterRun = () => {
    if (waiting.length === 0) return reportIdle();
    // A run waits here: read the socket once more before it starts. A drop sent while the run before it
    // held the thread (a synchronous loop) is still unread, and this check phase comes before the poll.
    if (idleReport !== undefined && !idleReport.polled) {
      idleReport.polled = true;
      idleReport.immediate = setImmediate(afterRun);
      return;
    }
    startQueued();
  };
  /** A run that found this runtime idle starts after the messages read with it: a drop among them still catches it. */
  const startArrived = () => {
    if (waiting.length > 0 && activeFinished()) startQueued();
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
      const done = outcome.ok
        ? `{"t":"done","x":${x},"ok":true,"value":${outcome.json}}`
        : JSON.stringify({ t: "done", x, ok: false, error: { code: outcome.code, message: outcome.message, ...(outcome.stack ? { stack: outcome.stack } : {}) } });
      // Written now even with a run waiting here: holding it for the idle report would lose it to a floating microtask loop.
      channel.sendText(done);
      // Sent only once no microtask of the run is left (a macrotask proves it): a run that keeps the
      // loop busy never sends it. The next Compartment is made first, so it overlaps the host's own
      // work on the result it just got; a run the host sent ahead sends the report itself (startArrived).
      idleReport = { x, immediate: setImmediate(afterRun) };
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
      if (waiting.length >= MAX_RUNS_WAITING) process.exit(70);
      waiting.push(request);
      // The run before it ended in an earlier macrotask (its report, if still due, is then true):
      // the first run waiting starts after the messages read with this one.
      if (activeFinished()) process.nextTick(startArrived);
    },
    /** Withdraw run `x` if it waits here unstarted; its catalog still becomes this runtime's. @param {number} x */
    drop(x) {
      const index = waiting.findIndex((request) => request.x === x);
      if (index < 0) return;
      dropQueued(/** @type {RunRequest} */ (waiting[index]));
      waiting.splice(index, 1);
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
