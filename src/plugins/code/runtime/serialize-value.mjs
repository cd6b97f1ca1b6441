// @ts-check
/**
 * JSON text of a sandbox value, made inside the runtime so the host never runs a getter, a Proxy
 * trap or a `toJSON`. Like `JSON.stringify`, except that it refuses what JSON would silently drop
 * or throw on (functions, symbols, BigInts, cycles, Maps and Sets) with a message naming the
 * place, stops at a size cap, and writes an Error as `{ name, message }`.
 */
import { types } from "node:util";

/** Deeper nesting than this is refused: it is never data, and it would exhaust the stack. */
export const MAX_DEPTH = 512;

/**
 * @typedef {{ ok: true, json: string } | { ok: false, code: string, message: string }} SerializeResult
 */

const FAILURE = Symbol("serialize failure");

/**
 * @param {string} code
 * @param {string} message
 * @returns {never}
 */
function fail(code, message) {
  throw { [FAILURE]: true, code, message };
}

/** @param {string} path @param {string | number} key */
function childPath(path, key) {
  if (typeof key === "number") return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** @param {unknown} error */
function errorText(error) {
  try {
    if (error !== null && typeof error === "object") return `${/** @type {any} */ (error).name}: ${/** @type {any} */ (error).message}`;
    return String(error);
  } catch {
    return "an unreadable error";
  }
}

/**
 * @param {unknown} value
 * @param {{ maxBytes: number, label: string, maxNodes?: number }} options `label` names the root in messages ("result", "arguments");
 *   `maxNodes`: most keys and items, all levels together (the host's walks grow with them, not with bytes)
 * @returns {SerializeResult}
 */
export function serializeValue(value, { maxBytes, label, maxNodes = Infinity }) {
  /** @type {string[]} */
  const parts = [];
  let size = 0;
  let nodes = 0;
  /**
   * Keys from the root to the value being visited. Paths are built from them only for a message:
   * building one per element and property made most of a large result's garbage.
   * @type {Array<string | number>}
   */
  const keys = [];
  /** @type {Map<object, number>} objects on the current path, with their depth (their path is the first `depth` keys) */
  const ancestors = new Map();

  /** @param {number} depth */
  const pathTo = (depth) => {
    let path = label;
    for (let index = 0; index < depth; index++) path = childPath(path, /** @type {string | number} */ (keys[index]));
    return path;
  };
  const here = () => pathTo(keys.length);

  /** @param {string} text */
  const emit = (text) => {
    size += text.length;
    if (size > maxBytes) fail("OUTPUT_TOO_LARGE", `The ${label} is larger than ${maxBytes} bytes as JSON (the limit was reached at ${here()}); return less, e.g. a summary or a page of it`);
    parts.push(text);
  };

  /**
   * Read `holder[key]`, running any getter: user code, under the run's deadline.
   * @param {any} holder @param {string | number} key @param {string} suffix what the message adds to the current path
   */
  const read = (holder, key, suffix) => {
    try {
      return holder[key];
    } catch (error) {
      return fail("RUNTIME_ERROR", `Reading ${here()}${suffix} threw ${errorText(error)}`);
    }
  };

  /**
   * @param {unknown} input the value at the current path (`keys`)
   * @param {string | number} key
   * @param {"top" | "array" | "object"} place
   * @returns {boolean} false when nothing was written (an omitted object property)
   */
  const visit = (input, key, place) => {
    if (place !== "top" && ++nodes > maxNodes) {
      fail("OUTPUT_TOO_LARGE", `The ${label} hold more than ${maxNodes} keys and items (all levels together); pass fewer, or a file or reference instead`);
    }
    let current = input;
    if (current !== null && typeof current === "object") {
      const toJSON = read(current, "toJSON", ".toJSON");
      if (typeof toJSON === "function") {
        try {
          current = toJSON.call(current, String(key));
        } catch (error) {
          fail("RUNTIME_ERROR", `${here()}.toJSON() threw ${errorText(error)}`);
        }
      }
    }
    switch (typeof current) {
      case "string":
        emit(JSON.stringify(current));
        return true;
      case "number":
        emit(Number.isFinite(current) ? String(current) : "null");
        return true;
      case "boolean":
        emit(current ? "true" : "false");
        return true;
      case "undefined":
        if (place === "object") return false;
        emit("null");
        return true;
      case "bigint":
        return fail("NOT_SERIALIZABLE", `${here()} is a BigInt (${current}n), which JSON cannot hold; convert it with String() or Number()`);
      case "symbol":
        return fail("NOT_SERIALIZABLE", `${here()} is a symbol, which JSON cannot hold`);
      case "function":
        return fail("NOT_SERIALIZABLE", `${here()} is a function, which JSON cannot hold; call it, or leave it out`);
      default:
        break;
    }
    if (current === null) {
      emit("null");
      return true;
    }
    const object = /** @type {object} */ (current);
    const seenAt = ancestors.get(object);
    if (seenAt !== undefined) fail("NOT_SERIALIZABLE", `${here()} refers back to ${pathTo(seenAt)}: circular structures cannot become JSON`);
    if (ancestors.size >= MAX_DEPTH) fail("NOT_SERIALIZABLE", `${here()} is nested more than ${MAX_DEPTH} levels deep`);
    // Brand checks that throw nothing: a throwing check (Map.prototype.has.call) built an Error with
    // its stack for every object serialized, the largest cost of a tool call inside the runtime.
    if (types.isMap(object)) fail("NOT_SERIALIZABLE", `${here()} is a Map, which JSON cannot hold; use Object.fromEntries(map) or [...map]`);
    if (types.isSet(object)) fail("NOT_SERIALIZABLE", `${here()} is a Set, which JSON cannot hold; use [...set]`);
    ancestors.set(object, keys.length);
    if (Array.isArray(object)) {
      emit("[");
      const length = Number(read(object, "length", ".length"));
      for (let index = 0; index < length; index++) {
        if (index > 0) emit(",");
        keys.push(index);
        visit(read(object, index, ""), index, "array");
        keys.pop();
      }
      emit("]");
    } else {
      emit("{");
      let first = true;
      const names = object instanceof Error ? ["name", "message", ...Object.keys(object).filter((name) => name !== "name" && name !== "message")] : Object.keys(object);
      for (const name of names) {
        keys.push(name);
        const before = parts.length;
        const beforeSize = size;
        if (!first) emit(",");
        emit(`${JSON.stringify(name)}:`);
        if (visit(read(object, name, ""), name, "object")) first = false;
        else {
          parts.length = before;
          size = beforeSize;
        }
        keys.pop();
      }
      emit("}");
    }
    ancestors.delete(object);
    return true;
  };

  try {
    visit(value, "", "top");
  } catch (error) {
    if (error !== null && typeof error === "object" && FAILURE in error) {
      const failure = /** @type {{ code: string, message: string }} */ (/** @type {unknown} */ (error));
      return { ok: false, code: failure.code, message: failure.message };
    }
    const stackOverflow = error instanceof RangeError;
    return {
      ok: false,
      code: "RUNTIME_ERROR",
      message: stackOverflow ? `The ${label} could not be turned into JSON: ${errorText(error)}` : `Serializing the ${label} threw ${errorText(error)}`,
    };
  }
  const json = parts.join("");
  const bytes = Buffer.byteLength(json, "utf8");
  if (bytes > maxBytes) return { ok: false, code: "OUTPUT_TOO_LARGE", message: `The ${label} is ${bytes} bytes as JSON, over the limit of ${maxBytes} bytes; return less, e.g. a summary or a page of it` };
  return { ok: true, json };
}
