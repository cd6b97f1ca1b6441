/**
 * A strict JSON parser that remembers where every value and key stands, so config errors can name
 * line and column, and that reports duplicate keys (which `JSON.parse` silently lets the last win).
 *
 * Fast path: a valid document is parsed by the engine's `JSON.parse` (which keeps `__proto__` as
 * data) plus a count of its keys against the text's (`is-plain-json-text.ts`: a repeated key or
 * excessive nesting sends it to the full parser); the location index is built only when something
 * asks where a value stands (an error or a warning). An 11 MB tools.json of 10,000 tools takes
 * ~40 ms of CPU. Anything unusual falls back to the full parser, which is the authority on every
 * error message. That parser (and so the first location asked for) costs ~1 s on such a file.
 */

import { isPlainJsonText } from "./is-plain-json-text.js";

export type JsonPath = ReadonlyArray<string | number>;

export interface JsonLocation {
  line: number;
  column: number;
}

export interface JsonDocument {
  value: unknown;
  /** Where the value at `path` starts, or its key when `key` is true; the nearest ancestor if absent. */
  locate(path: JsonPath, options?: { key?: boolean }): JsonLocation;
  duplicateKeys: Array<{ path: JsonPath; location: JsonLocation }>;
}

export type ParseJsonResult =
  | { ok: true; document: JsonDocument }
  | { ok: false; message: string; location: JsonLocation };

class JsonSyntaxFault extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Far beyond any real config, and far below the depth at which recursion would overflow the stack. */
export const MAX_NESTING_DEPTH = 256;

// JSON text, not a join: keeps ["a", "b"] apart from ["a\u0000b"], and [0] apart from ["0"].
const pathKey = (path: JsonPath): string => JSON.stringify(path);

/** Parse `text` as one JSON document. Never throws. */
export function parseJsonDocument(text: string): ParseJsonResult {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    return parseWithLocations(source);
  }
  if (!isPlainJsonText(source, value, MAX_NESTING_DEPTH)) return parseWithLocations(source);
  let located: JsonDocument | undefined;
  const locate: JsonDocument["locate"] = (path, options) => {
    located ??= (parseWithLocations(source) as Extract<ParseJsonResult, { ok: true }>).document;
    return located.locate(path, options);
  };
  return { ok: true, document: { value, locate, duplicateKeys: [] } };
}

/** The full parser: every value's and key's offset, duplicate keys, and precise syntax errors. */
function parseWithLocations(source: string): ParseJsonResult {
  const lineStarts = [0];
  for (let index = 0; index < source.length; index++) if (source[index] === "\n") lineStarts.push(index + 1);
  const toLocation = (offset: number): JsonLocation => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (lineStarts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - lineStarts[low]! + 1 };
  };

  const valueOffsets = new Map<string, number>();
  const keyOffsets = new Map<string, number>();
  const duplicateKeys: JsonDocument["duplicateKeys"] = [];
  let position = 0;

  /** What stands at `offset`, in words: whole words like `True`, names for invisible characters. */
  const describe = (offset: number): string => {
    if (offset >= source.length) return "the end of the file";
    const char = source[offset]!;
    if (char === "\n" || char === "\r") return "a line break";
    if (char === "\t") return "a tab";
    if (char < " ") return `the control character U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
    if (char === "'") return "a single quote (JSON strings use double quotes)";
    if (source.startsWith("//", offset) || source.startsWith("/*", offset)) return "a comment (JSON has no comments)";
    const word = /^[A-Za-z_$][\w$]*/.exec(source.slice(offset, offset + 40));
    return `'${word ? word[0] : char}'`;
  };
  const fail = (expected: string, offset = position): never => {
    throw new JsonSyntaxFault(`Invalid JSON: expected ${expected}, got ${describe(offset)}`, offset);
  };
  const skipWhitespace = () => {
    while (position < source.length && " \t\n\r".includes(source[position]!)) position++;
  };

  const parseString = (): string => {
    const start = position;
    position++;
    let result = "";
    while (position < source.length) {
      const char = source[position]!;
      if (char === '"') {
        position++;
        return result;
      }
      if (char === "\\") {
        const escape = source[position + 1];
        const simple: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
        if (escape !== undefined && escape in simple) {
          result += simple[escape];
          position += 2;
        } else if (escape === "u" && /^[0-9a-fA-F]{4}$/.test(source.slice(position + 2, position + 6))) {
          result += String.fromCharCode(parseInt(source.slice(position + 2, position + 6), 16));
          position += 6;
        } else if (escape === "u") {
          const digits = /^[0-9a-fA-F]*/.exec(source.slice(position + 2, position + 6))![0];
          throw new JsonSyntaxFault(`Invalid JSON: expected four hexadecimal digits after \\u, got '\\u${digits}'`, position);
        } else {
          const got = escape === undefined || escape < " " ? describe(position + 1) : `'\\${escape}'`;
          throw new JsonSyntaxFault(`Invalid JSON: expected a valid escape such as \\n, \\" or \\u00e9, got ${got}`, position);
        }
      } else if (char === "\n" || char === "\r") {
        // Point at the string's start: that is where the missing quote belongs, not where the line ends.
        throw new JsonSyntaxFault("Invalid JSON: unterminated string: expected a closing quote before the end of the line", start);
      } else if (char < " ") {
        fail("an escape such as \\t instead of a raw control character in a string");
      } else {
        result += char;
        position++;
      }
    }
    throw new JsonSyntaxFault("Invalid JSON: unterminated string: expected a closing quote before the end of the file", start);
  };

  const parseValue = (path: JsonPath): unknown => {
    skipWhitespace();
    if (path.length >= MAX_NESTING_DEPTH) {
      throw new JsonSyntaxFault(`Invalid JSON: values nested more than ${MAX_NESTING_DEPTH} levels deep`, position);
    }
    valueOffsets.set(pathKey(path), position);
    const char = source[position];
    if (char === "{") return parseObject(path);
    if (char === "[") return parseArray(path);
    if (char === '"') return parseString();
    for (const [word, value] of [["true", true], ["false", false], ["null", null]] as const) {
      if (source.startsWith(word, position)) {
        position += word.length;
        return value;
      }
    }
    const number = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(source.slice(position, position + 400));
    if (number) {
      // The pattern stops before a digit only after a lone 0, as in 01: name the real problem.
      if (/\d/.test(source[position + number[0].length] ?? "")) {
        throw new JsonSyntaxFault(`Invalid JSON: expected a number without leading zeros, got '${/^-?\d+/.exec(source.slice(position))![0]}'`, position);
      }
      position += number[0].length;
      return Number(number[0]);
    }
    return fail("a value (object, array, string, number, true, false or null)");
  };

  /**
   * After a member of the object or array opened at `open`: step over ',' (refusing a trailing one),
   * or over the closing bracket, returning true when the container ends there.
   */
  const closesAfterMember = (open: number, close: "}" | "]", member: string): boolean => {
    skipWhitespace();
    if (source[position] === ",") {
      const comma = position;
      position++;
      skipWhitespace();
      // Point at the comma: it is what the author must delete.
      if (source[position] === close) throw new JsonSyntaxFault(`Invalid JSON: trailing comma before '${close}' (JSON allows none), remove it`, comma);
      return false;
    }
    if (source[position] === close) {
      position++;
      return true;
    }
    const expected = `Invalid JSON: expected ',' or '${close}' after ${member}, got ${describe(position)}`;
    const { line, column } = toLocation(open);
    if (position >= source.length) {
      throw new JsonSyntaxFault(`${expected}: the '${source[open]}' at line ${line}, column ${column} is never closed`, position);
    }
    if (source[position] === "}" || source[position] === "]") {
      throw new JsonSyntaxFault(`${expected}: the '${source[open]}' at line ${line}, column ${column} is still open`, position);
    }
    const startsMember = close === "}" ? source[position] === '"' : /["{[\-\dtfn]/.test(source[position]!);
    throw new JsonSyntaxFault(startsMember ? `${expected}; is a comma missing?` : expected, position);
  };

  const parseObject = (path: JsonPath): Record<string, unknown> => {
    const result: Record<string, unknown> = {};
    const open = position;
    position++;
    skipWhitespace();
    if (source[position] === "}") {
      position++;
      return result;
    }
    for (;;) {
      skipWhitespace();
      if (source[position] !== '"') fail("a property name in double quotes");
      const keyOffset = position;
      const key = parseString();
      const memberPath = [...path, key];
      if (Object.prototype.hasOwnProperty.call(result, key)) {
        duplicateKeys.push({ path: memberPath, location: toLocation(keyOffset) });
      }
      keyOffsets.set(pathKey(memberPath), keyOffset);
      skipWhitespace();
      if (source[position] !== ":") fail("':' after a property name");
      position++;
      // defineProperty: a "__proto__" key must become data, not the prototype.
      Object.defineProperty(result, key, { value: parseValue(memberPath), enumerable: true, writable: true, configurable: true });
      if (closesAfterMember(open, "}", "a property value")) return result;
    }
  };

  const parseArray = (path: JsonPath): unknown[] => {
    const result: unknown[] = [];
    const open = position;
    position++;
    skipWhitespace();
    if (source[position] === "]") {
      position++;
      return result;
    }
    for (;;) {
      result.push(parseValue([...path, result.length]));
      if (closesAfterMember(open, "]", "an array element")) return result;
    }
  };

  try {
    skipWhitespace();
    if (position >= source.length) {
      return { ok: false, message: "File is empty: expected a JSON object", location: { line: 1, column: 1 } };
    }
    const value = parseValue([]);
    skipWhitespace();
    if (position < source.length) fail("the end of the file after the top-level value");
    const locate: JsonDocument["locate"] = (path, options = {}) => {
      for (let length = path.length; length >= 0; length--) {
        const key = pathKey(path.slice(0, length));
        const offset = (options.key && length === path.length ? keyOffsets.get(key) : undefined) ?? valueOffsets.get(key);
        if (offset !== undefined) return toLocation(offset);
      }
      return { line: 1, column: 1 };
    };
    return { ok: true, document: { value, locate, duplicateKeys } };
  } catch (error) {
    if (error instanceof JsonSyntaxFault) return { ok: false, message: error.message, location: toLocation(error.offset) };
    throw error;
  }
}

/** `tools[2].inputSchema.properties["a b"]` */
export function formatJsonPath(path: JsonPath): string {
  let result = "";
  for (const segment of path) {
    if (typeof segment === "number") result += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) result += result === "" ? segment : `.${segment}`;
    else result += `[${JSON.stringify(segment)}]`;
  }
  return result;
}
