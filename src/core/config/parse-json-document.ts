/**
 * A strict JSON parser that remembers where every value and key stands, so config errors can name
 * line and column, and that reports duplicate keys (which `JSON.parse` silently lets the last win).
 */

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

const pathKey = (path: JsonPath): string => path.join("\u0000");

/** Parse `text` as one JSON document. Never throws. */
export function parseJsonDocument(text: string): ParseJsonResult {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
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

  const describe = (offset: number): string =>
    offset >= source.length ? "end of file" : `'${source[offset]}'`;
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
        } else {
          fail("a valid escape sequence", position + 1);
        }
      } else if (char.charCodeAt(0) < 0x20) {
        fail("a closing quote before the end of the line");
      } else {
        result += char;
        position++;
      }
    }
    throw new JsonSyntaxFault("Invalid JSON: unterminated string", start);
  };

  const parseValue = (path: JsonPath): unknown => {
    skipWhitespace();
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
      position += number[0].length;
      return Number(number[0]);
    }
    return fail("a value (object, array, string, number, true, false or null)");
  };

  const parseObject = (path: JsonPath): Record<string, unknown> => {
    const result: Record<string, unknown> = {};
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
      skipWhitespace();
      if (source[position] === ",") {
        position++;
        skipWhitespace();
        if (source[position] === "}") fail("another property after ',' (trailing commas are not JSON)");
        continue;
      }
      if (source[position] === "}") {
        position++;
        return result;
      }
      fail("',' or '}' after a property value");
    }
  };

  const parseArray = (path: JsonPath): unknown[] => {
    const result: unknown[] = [];
    position++;
    skipWhitespace();
    if (source[position] === "]") {
      position++;
      return result;
    }
    for (;;) {
      result.push(parseValue([...path, result.length]));
      skipWhitespace();
      if (source[position] === ",") {
        position++;
        skipWhitespace();
        if (source[position] === "]") fail("another value after ',' (trailing commas are not JSON)");
        continue;
      }
      if (source[position] === "]") {
        position++;
        return result;
      }
      fail("',' or ']' after an array element");
    }
  };

  try {
    skipWhitespace();
    if (position >= source.length) {
      return { ok: false, message: "File is empty: expected a JSON object", location: { line: 1, column: 1 } };
    }
    const value = parseValue([]);
    skipWhitespace();
    if (position < source.length) fail("end of file after the top-level value");
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
