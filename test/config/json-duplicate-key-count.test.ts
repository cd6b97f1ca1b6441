/**
 * parseJsonDocument finds duplicate keys without its full parser by counting: the text's keys
 * (strings followed by ':') against the keys `JSON.parse` kept. Texts built to fool a count —
 * quotes, backslashes and colons inside strings, escaped spellings of one key, whitespace before
 * the colon — must still have each duplicate reported, and texts without one must report none.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseJsonDocument } from "../../src/core/json/parse-json-document.js";

function duplicatesOf(text: string) {
  const parsed = parseJsonDocument(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.document.duplicateKeys.map((duplicate) => duplicate.path);
}

describe("duplicate keys found by counting", () => {
  it.each([
    [`{"a":1,"a":2}`, [["a"]]],
    [`{"x":{"a":1,"b":{"c":1},"a":{"b":1}}}`, [["x", "a"]]],
    [`{"a\\"b":1,"a\\"b":2}`, [['a"b']]],
    [`{"a\\\\":1,"a\\\\":2}`, [["a\\"]]],
    [`{"a":"x\\":y","a":1}`, [["a"]]],
    [`{"a:b":"c:d","a:b":2}`, [["a:b"]]],
    [`{"a":1,"\\u0061":2}`, [["a"]]],
    [`{"a" : 1,\n "a"\n\t:2}`, [["a"]]],
    [`{"a" : 1,"a":2}`, [["a"]]],
    [`{"a\\\\" : 1,"a\\\\":2}`, [["a\\"]]],
    [`{"__proto__":1,"__proto__":2}`, [["__proto__"]]],
    [`[{"k":1},{"k":1,"k":2}]`, [[1, "k"]]],
    [`{"s":"{\\"a\\":1,\\"a\\":2}","t":["\\":","\\\\"]}`, []],
    [`{"a":"\\\\","b":"\\\\\\"","c":{"a":"b:"}}`, []],
    [`{"a":{},"b":[],"c":[{}],"d":""}`, []],
  ])("%s", (text, expected) => {
    expect(duplicatesOf(text)).toEqual(expected);
    const parsed = parseJsonDocument(text);
    expect(parsed.ok && parsed.document.value).toEqual(JSON.parse(text));
  });

  describe("with an enumerable property added to Object.prototype by the host", () => {
    afterEach(() => {
      delete (Object.prototype as Record<string, unknown>).addedByHost;
    });

    it("still reports a duplicate, and no false one", () => {
      Object.defineProperty(Object.prototype, "addedByHost", { value: 1, enumerable: true, configurable: true, writable: true });
      expect(duplicatesOf(`{"a":{"b":1},"c":{"d":1},"a":2}`)).toEqual([["a"]]);
      expect(duplicatesOf(`{"a":{"b":1},"c":{"d":1}}`)).toEqual([]);
    });
  });
});
