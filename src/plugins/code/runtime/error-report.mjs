// @ts-check
/**
 * Stacks and error reports for sandboxed code. After `lockdown({ errorTaming: "safe" })` every
 * `error.stack` is empty; the start compartment may still install `Error.prepareStackTrace`, which
 * SES hands safe call-site facets. Ours keeps only frames of the submitted code (by its
 * sourceURL), maps their columns back to the code as written, and never runs a sandbox getter.
 */

/** Must match CODE_SOURCE_URL in prepare-source.ts. */
export const CODE_SOURCE_URL = "code.js";

/** What the current run needs to map frames: set by the runtime before each run. */
const current = {
  /** @type {Array<[number, number, number, number]>} */
  columnEdits: [],
  lastLine: Number.MAX_SAFE_INTEGER,
};

/**
 * @param {Array<[number, number, number, number]>} columnEdits [line, column, originalLength, generatedLength]
 * @param {number} lastLine frames below the submitted code (the wrapper's) are dropped
 */
export function setCurrentSource(columnEdits, lastLine) {
  current.columnEdits = columnEdits;
  current.lastLine = lastLine;
}

/** A 1-based column of the evaluated source → the column in the code as written (see source-edits.ts). */
function mapColumn(/** @type {number} */ line, /** @type {number} */ column) {
  const generated = column - 1;
  let shift = 0;
  for (const [editLine, editColumn, originalLength, generatedLength] of current.columnEdits) {
    if (editLine !== line) continue;
    const start = editColumn + shift;
    if (generated < start) break;
    if (generated < start + generatedLength) return editColumn + 1;
    shift += generatedLength - originalLength;
  }
  return generated - shift + 1;
}

/**
 * The error prototypes whose `name` lockdown turned into an accessor (overrideTaming): their
 * getters are SES's own and safe to call. Any other accessor may be sandbox code.
 */
const INTRINSIC_ERROR_PROTOTYPES = new Set(
  /** @type {object[]} */ ([Error, TypeError, RangeError, ReferenceError, SyntaxError, EvalError, URIError, AggregateError].map((constructor) => constructor.prototype)),
);

/** A property along the prototype chain, without running sandbox getters or traps. */
function readData(/** @type {unknown} */ object, /** @type {string} */ key) {
  if (object === null || typeof object !== "object") return undefined;
  /** @type {object | null} */
  let target = object;
  for (let hops = 0; target !== null && hops < 20; hops++) {
    const descriptor = Reflect.getOwnPropertyDescriptor(target, key);
    if (descriptor !== undefined) {
      if ("value" in descriptor) return descriptor.value;
      return INTRINSIC_ERROR_PROTOTYPES.has(target) ? descriptor.get?.call(object) : undefined;
    }
    target = Reflect.getPrototypeOf(target);
  }
  return undefined;
}

/** `Name: message`, read without running any getter. */
function headerOf(/** @type {unknown} */ error) {
  const name = readData(error, "name");
  const message = readData(error, "message");
  const shownName = typeof name === "string" && name !== "" ? name : "Error";
  return typeof message === "string" && message !== "" ? `${shownName}: ${message}` : shownName;
}

/** @param {any} site */
function frameText(site) {
  const line = site.getLineNumber();
  const where = `${CODE_SOURCE_URL}:${line}:${mapColumn(line, site.getColumnNumber())}`;
  const name = site.getFunctionName();
  const prefix = site.isAsync() ? "async " : "";
  return name && name !== "eval" ? `\n    at ${prefix}${name} (${where})` : `\n    at ${prefix}${where}`;
}

/** Install the stack formatter; call once, after lockdown, in the start compartment. */
export function installStackFormatter() {
  Error.stackTraceLimit = 20;
  Error.prepareStackTrace = (error, sites) => {
    let frames = "";
    try {
      for (const site of sites) {
        if (site.getScriptNameOrSourceURL() !== CODE_SOURCE_URL || (site.getLineNumber() ?? 0) > current.lastLine) continue;
        frames += frameText(site);
      }
      return `${headerOf(error)}${frames}`;
    } catch {
      return frames;
    }
  };
}

const MEMORY_MESSAGES = /^(Invalid string length|Array buffer allocation failed|Invalid typed array length|Invalid array buffer length)/;

/** Read a property of a thrown value; a getter may run here (sandbox code, under the deadline). */
function safeRead(/** @type {any} */ object, /** @type {string} */ key) {
  try {
    const value = object[key];
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The error part of a failed run from whatever the code threw.
 *
 * @param {unknown} thrown
 * @param {(values: unknown[]) => string} format
 * @returns {{ code: string, message: string, stack?: string }}
 */
export function reportThrown(thrown, format) {
  if (thrown === null || typeof thrown !== "object") {
    return { code: "RUNTIME_ERROR", message: `Uncaught ${typeof thrown === "string" ? JSON.stringify(thrown) : format([thrown])}` };
  }
  const name = safeRead(thrown, "name") ?? "Error";
  const message = safeRead(thrown, "message") ?? "";
  const stack = safeRead(thrown, "stack");
  const toolCode = name === "ToolError" ? safeRead(thrown, "code") : undefined;
  const code = name === "RangeError" && MEMORY_MESSAGES.test(message) ? "MEMORY_LIMIT" : "RUNTIME_ERROR";
  const text =
    toolCode !== undefined
      ? `Uncaught ToolError ${toolCode}: ${message}`
      : code === "MEMORY_LIMIT"
        ? `The code tried to allocate more memory than a runtime allows (${name}: ${message})`
        : `${name}: ${message}`;
  return stack !== undefined && stack.includes("\n    at ") ? { code, message: text, stack } : { code, message: text };
}
