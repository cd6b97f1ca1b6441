/**
 * The full JSON parser behind `parseJsonDocument`: every value's and key's offset, duplicate keys, and
 * precise syntax errors. It is the authority on every error message; the fast path only stands in for
 * it on documents it would accept.
 */
import { lineLocator } from "./line-locator.js";
import type { JsonDocument, JsonLocation, JsonPath, ParseJsonResult } from "./parse-json-document.js";

/** Far beyond any real config, and far below the depth at which recursion would overflow the stack. */
export const MAX_NESTING_DEPTH = 256;

class JsonSyntaxFault extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

// JSON text, not a join: keeps ["a", "b"] apart from ["a\u0000b"], and [0] apart from ["0"].
const pathKey = (path: JsonPath): string => JSON.stringify(path);

/** What stands at `offset`, in words: whole words like `True`, names for invisible characters. */
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

function describeAt(source: string, offset: number): string {
  if (offset >= source.length) return "the end of the file";
  const char = source[offset]!;
  if (char === "\n" || char === "\r") return "a line break";
  if (char === "\t") return "a tab";
  if (char < " ") return `the control character U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
  if (char === "'") return "a single quote (JSON strings use double quotes)";
  if (source.startsWith("//", offset) || source.startsWith("/*", offset)) return "a comment (JSON has no comments)";
  const word = /^[A-Za-z_$][\w$]*/.exec(source.slice(offset, offset + 40));
  return `'${word ? word[0] : char}'`;
}

/** Parse `source` (without a byte-order mark) as one JSON document, recording where everything stands. Never throws. */
export function parseWithLocations(source: string): ParseJsonResult {
  return new LocatingParser(source).parseDocument();
}

/** One parse: a cursor over the text, recursive descent, and the offsets met on the way. */
class LocatingParser {
  private position = 0;
  private readonly valueOffsets = new Map<string, number>();
  private readonly keyOffsets = new Map<string, number>();
  private readonly duplicateKeys: JsonDocument["duplicateKeys"] = [];
  private readonly toLocation: (offset: number) => JsonLocation;

  constructor(private readonly source: string) {
    this.toLocation = lineLocator(source);
  }

  parseDocument(): ParseJsonResult {
    try {
      this.skipWhitespace();
      if (this.position >= this.source.length) {
        return { ok: false, message: "File is empty: expected a JSON object", location: { line: 1, column: 1 } };
      }
      const value = this.parseValue([]);
      this.skipWhitespace();
      if (this.position < this.source.length) this.fail("the end of the file after the top-level value");
      return { ok: true, document: { value, locate: this.locator(), duplicateKeys: this.duplicateKeys } };
    } catch (error) {
      if (error instanceof JsonSyntaxFault) return { ok: false, message: error.message, location: this.toLocation(error.offset) };
      throw error;
    }
  }

  /** Where the value (or key) at a path starts; the nearest recorded ancestor when the path is not in the document. */
  private locator(): JsonDocument["locate"] {
    const { keyOffsets, valueOffsets, toLocation } = this;
    return (path, options = {}) => {
      for (let length = path.length; length >= 0; length--) {
        const key = pathKey(path.slice(0, length));
        const offset = (options.key && length === path.length ? keyOffsets.get(key) : undefined) ?? valueOffsets.get(key);
        if (offset !== undefined) return toLocation(offset);
      }
      return { line: 1, column: 1 };
    };
  }

  private fail(expected: string, offset = this.position): never {
    throw new JsonSyntaxFault(`Invalid JSON: expected ${expected}, got ${describeAt(this.source, offset)}`, offset);
  }

  private skipWhitespace(): void {
    while (this.position < this.source.length && " \t\n\r".includes(this.source[this.position]!)) this.position++;
  }

  private parseString(): string {
    const start = this.position;
    this.position++;
    let result = "";
    while (this.position < this.source.length) {
      const char = this.source[this.position]!;
      if (char === '"') {
        this.position++;
        return result;
      }
      if (char === "\\") {
        const escape = this.source[this.position + 1];
        const simple: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
        if (escape !== undefined && escape in simple) {
          result += simple[escape];
          this.position += 2;
        } else if (escape === "u" && /^[0-9a-fA-F]{4}$/.test(this.source.slice(this.position + 2, this.position + 6))) {
          result += String.fromCharCode(parseInt(this.source.slice(this.position + 2, this.position + 6), 16));
          this.position += 6;
        } else if (escape === "u") {
          const digits = /^[0-9a-fA-F]*/.exec(this.source.slice(this.position + 2, this.position + 6))![0];
          throw new JsonSyntaxFault(`Invalid JSON: expected four hexadecimal digits after \\u, got '\\u${digits}'`, this.position);
        } else {
          const got = escape === undefined || escape < " " ? describeAt(this.source, this.position + 1) : `'\\${escape}'`;
          throw new JsonSyntaxFault(`Invalid JSON: expected a valid escape such as \\n, \\" or \\u00e9, got ${got}`, this.position);
        }
      } else if (char === "\n" || char === "\r") {
        // Point at the string's start: that is where the missing quote belongs, not where the line ends.
        throw new JsonSyntaxFault("Invalid JSON: unterminated string: expected a closing quote before the end of the line", start);
      } else if (char < " ") {
        this.fail("an escape such as \\t instead of a raw control character in a string");
      } else {
        result += char;
        this.position++;
      }
    }
    throw new JsonSyntaxFault("Invalid JSON: unterminated string: expected a closing quote before the end of the file", start);
  }

  private parseValue(path: JsonPath): unknown {
    this.skipWhitespace();
    if (path.length >= MAX_NESTING_DEPTH) {
      throw new JsonSyntaxFault(`Invalid JSON: values nested more than ${MAX_NESTING_DEPTH} levels deep`, this.position);
    }
    this.valueOffsets.set(pathKey(path), this.position);
    const char = this.source[this.position];
    if (char === "{") return this.parseObject(path);
    if (char === "[") return this.parseArray(path);
    if (char === '"') return this.parseString();
    for (const [word, value] of [["true", true], ["false", false], ["null", null]] as const) {
      if (this.source.startsWith(word, this.position)) {
        this.position += word.length;
        return value;
      }
    }
    // Sticky, on the source itself: a number of any length is read whole (JSON.parse takes it too).
    NUMBER.lastIndex = this.position;
    const number = NUMBER.exec(this.source);
    if (number) {
      // The pattern stops before a digit only after a lone 0, as in 01: name the real problem.
      if (/\d/.test(this.source[this.position + number[0].length] ?? "")) {
        throw new JsonSyntaxFault(`Invalid JSON: expected a number without leading zeros, got '${/^-?\d+/.exec(this.source.slice(this.position))![0]}'`, this.position);
      }
      this.position += number[0].length;
      return Number(number[0]);
    }
    return this.fail("a value (object, array, string, number, true, false or null)");
  }

  /**
   * After a member of the object or array opened at `open`: step over ',' (refusing a trailing one),
   * or over the closing bracket, returning true when the container ends there.
   */
  private closesAfterMember(open: number, close: "}" | "]", member: string): boolean {
    this.skipWhitespace();
    if (this.source[this.position] === ",") {
      const comma = this.position;
      this.position++;
      this.skipWhitespace();
      // Point at the comma: it is what the author must delete.
      if (this.source[this.position] === close) throw new JsonSyntaxFault(`Invalid JSON: trailing comma before '${close}' (JSON allows none), remove it`, comma);
      return false;
    }
    if (this.source[this.position] === close) {
      this.position++;
      return true;
    }
    const expected = `Invalid JSON: expected ',' or '${close}' after ${member}, got ${describeAt(this.source, this.position)}`;
    const { line, column } = this.toLocation(open);
    if (this.position >= this.source.length) {
      throw new JsonSyntaxFault(`${expected}: the '${this.source[open]}' at line ${line}, column ${column} is never closed`, this.position);
    }
    if (this.source[this.position] === "}" || this.source[this.position] === "]") {
      throw new JsonSyntaxFault(`${expected}: the '${this.source[open]}' at line ${line}, column ${column} is still open`, this.position);
    }
    const startsMember = close === "}" ? this.source[this.position] === '"' : /["{[\-\dtfn]/.test(this.source[this.position]!);
    throw new JsonSyntaxFault(startsMember ? `${expected}; is a comma missing?` : expected, this.position);
  }

  private parseObject(path: JsonPath): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    const open = this.position;
    this.position++;
    this.skipWhitespace();
    if (this.source[this.position] === "}") {
      this.position++;
      return result;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.source[this.position] !== '"') this.fail("a property name in double quotes");
      const keyOffset = this.position;
      const key = this.parseString();
      const memberPath = [...path, key];
      if (Object.prototype.hasOwnProperty.call(result, key)) {
        this.duplicateKeys.push({ path: memberPath, location: this.toLocation(keyOffset) });
      }
      this.keyOffsets.set(pathKey(memberPath), keyOffset);
      this.skipWhitespace();
      if (this.source[this.position] !== ":") this.fail("':' after a property name");
      this.position++;
      // defineProperty: a "__proto__" key must become data, not the prototype.
      Object.defineProperty(result, key, { value: this.parseValue(memberPath), enumerable: true, writable: true, configurable: true });
      if (this.closesAfterMember(open, "}", "a property value")) return result;
    }
  }

  private parseArray(path: JsonPath): unknown[] {
    const result: unknown[] = [];
    const open = this.position;
    this.position++;
    this.skipWhitespace();
    if (this.source[this.position] === "]") {
      this.position++;
      return result;
    }
    for (;;) {
      result.push(this.parseValue([...path, result.length]));
      if (this.closesAfterMember(open, "]", "an array element")) return result;
    }
  }
}
