// @ts-check
/**
 * Text of `console.log` arguments, like Node prints them but small and self-contained: strings as
 * they are, everything else in a compact JSON-like form with depth, width and cycle limits. It
 * never hands sandbox values anything of the runtime's (node:util's inspect would pass its own
 * functions to a `[util.inspect.custom]` method).
 */

const MAX_DEPTH = 4;
const MAX_ENTRIES = 50;
const MAX_STRING = 10_000;

/** @param {unknown} error */
function describeThrow(error) {
  try {
    return error !== null && typeof error === "object" ? String(/** @type {any} */ (error).message) : String(error);
  } catch {
    return "?";
  }
}

/** @param {string} text */
function clip(text) {
  return text.length > MAX_STRING ? `${text.slice(0, MAX_STRING)}… (${text.length} characters)` : text;
}

/**
 * @param {unknown} value
 * @param {number} depth
 * @param {Set<object>} seen
 * @returns {string}
 */
function inspect(value, depth, seen) {
  switch (typeof value) {
    case "string":
      return JSON.stringify(clip(value));
    case "number":
    case "boolean":
    case "undefined":
      return String(value);
    case "bigint":
      return `${value}n`;
    case "symbol":
      return value.toString();
    case "function":
      return `[Function${value.name ? `: ${value.name}` : " (anonymous)"}]`;
    default:
      break;
  }
  if (value === null) return "null";
  const object = /** @type {object} */ (value);
  if (seen.has(object)) return "[Circular]";
  if (object instanceof Error) {
    const stack = /** @type {any} */ (object).stack;
    return typeof stack === "string" && stack.includes("\n    at ") ? stack : `${/** @type {any} */ (object).name}: ${/** @type {any} */ (object).message}`;
  }
  if (object instanceof Date) return Number.isNaN(object.getTime()) ? "Invalid Date" : object.toISOString();
  if (object instanceof RegExp) return String(object);
  if (depth >= MAX_DEPTH) return Array.isArray(object) ? "[Array]" : "[Object]";
  seen.add(object);
  try {
    /** @type {string[]} */
    const items = [];
    let more = 0;
    /** @param {string} text */
    const add = (text) => items.push(text);
    let open = "{";
    let close = "}";
    if (Array.isArray(object)) {
      [open, close] = ["[", "]"];
      const shown = Math.min(object.length, MAX_ENTRIES);
      for (let index = 0; index < shown; index++) add(inspect(object[index], depth + 1, seen));
      more = object.length - shown;
    } else if (object instanceof Map) {
      [open, close] = [`Map(${object.size}) {`, "}"];
      for (const [key, item] of object) {
        if (items.length >= MAX_ENTRIES) break;
        add(`${inspect(key, depth + 1, seen)} => ${inspect(item, depth + 1, seen)}`);
      }
      more = object.size - items.length;
    } else if (object instanceof Set) {
      [open, close] = [`Set(${object.size}) {`, "}"];
      for (const item of object) {
        if (items.length >= MAX_ENTRIES) break;
        add(inspect(item, depth + 1, seen));
      }
      more = object.size - items.length;
    } else {
      const keys = Object.keys(object);
      for (const key of keys.slice(0, MAX_ENTRIES)) {
        const name = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
        add(`${name}: ${inspect(/** @type {any} */ (object)[key], depth + 1, seen)}`);
      }
      more = keys.length - items.length;
    }
    if (more > 0) items.push(`… ${more} more`);
    return items.length === 0 ? `${open}${close}` : `${open} ${items.join(", ")} ${close}`;
  } finally {
    seen.delete(object);
  }
}

/**
 * One log line from `console.log(...values)`.
 *
 * @param {unknown[]} values
 * @returns {string}
 */
export function formatLogArguments(values) {
  return values
    .map((value) => {
      try {
        return typeof value === "string" ? clip(value) : inspect(value, 0, new Set());
      } catch (error) {
        return `[unprintable: ${describeThrow(error)}]`;
      }
    })
    .join(" ");
}
