/**
 * Seeded generators of hostile inputs for the fuzz test: values JSON cannot carry, values that run
 * code when read, huge and deep values, look-alike names, and options at and past their limits.
 * Each returns a short label with the value, so a failure names what was sent.
 */

export type Random = () => number;
export interface Labelled {
  label: string;
  value: unknown;
}

/** mulberry32: small, fast and seedable, so every run of the fuzz sends the same calls. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <Item>(random: Random, items: readonly Item[]): Item => items[Math.floor(random() * items.length)]!;

const throwing = (message: string) =>
  new Proxy(
    {},
    {
      ownKeys: () => {
        throw new Error(message);
      },
      get: () => {
        throw new Error(message);
      },
      getPrototypeOf: () => {
        throw new Error(message);
      },
    },
  );

function revokedProxy() {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function nested(depth: number, asArray: boolean): unknown {
  let value: unknown = "bottom";
  for (let level = 0; level < depth; level++) value = asArray ? [value] : { a: value };
  return value;
}

function cyclic() {
  const value: Record<string, unknown> = { name: "loop" };
  value.self = value;
  return value;
}

function sparse() {
  const value: unknown[] = [];
  value[100_000] = 1;
  return value;
}

/** Hostile values, each with a label. */
const VALUES: Array<[string, () => unknown]> = [
  ["catastrophic-pattern string", () => `${"a".repeat(28)}!`],
  ["longer catastrophic-pattern string", () => `${"a".repeat(30)}!`],
  ["100 KB attack on the pattern", () => `${"a".repeat(100_000)}!`],
  ["512 KB string", () => "x".repeat(512 * 1024)],
  ["quadratic url attack", () => `ftp://172.30.3.56${"4.1.6.7:155".repeat(10_000)}\u0000`],
  ["url with many @", () => `http://${"a@".repeat(50_000)}example.com`],
  ["object nested 5,000 deep", () => nested(5_000, false)],
  ["array nested 50,000 deep", () => nested(50_000, true)],
  ["__proto__ key", () => JSON.parse('{"__proto__": {"polluted": true}, "x": 1}')],
  ["constructor.prototype", () => ({ constructor: { prototype: { polluted: true } } })],
  ["cycle", cyclic],
  ["BigInt", () => 10n ** 30n],
  ["Symbol", () => Symbol("fuzz")],
  ["Symbol key", () => ({ [Symbol("k")]: 1, plain: 2 })],
  ["throwing getter", () => ({ get boom() { throw new Error("getter ran"); } })],
  ["throwing Proxy", () => throwing("trap ran")],
  ["revoked Proxy", revokedProxy],
  ["Uint8Array", () => new Uint8Array([1, 2, 3])],
  ["Float64Array", () => new Float64Array(1_000)],
  ["Date", () => new Date(0)],
  ["invalid Date", () => new Date(Number.NaN)],
  ["sparse array", sparse],
  ["NaN", () => Number.NaN],
  ["Infinity", () => Number.POSITIVE_INFINITY],
  ["-0", () => -0],
  ["lone surrogates", () => "\ud800x\udfff"],
  ["NUL", () => "a\u0000b"],
  ["function", () => () => 1],
  ["undefined", () => undefined],
  ["null", () => null],
  ["Map", () => new Map([["a", 1]])],
  ["Set", () => new Set([1])],
  ["throwing toJSON", () => ({ toJSON() { throw new Error("toJSON ran"); } })],
  ["toJSON returning this", () => ({ toJSON() { return this; } })],
  ["null-prototype object", () => Object.assign(Object.create(null), { a: 1 })],
  ["boxed String", () => new String("boxed")],
  ["class instance", () => new (class Point { x = 1; })()],
  ["password", () => ({ password: "hunter2-fuzz-secret", note: "echo hunter2-fuzz-secret" })],
  ["plain", () => ({ word: "aaa", link: "https://example.com", count: 3 })],
];

/** A hostile value, or a plain one built from them (one or two levels deep). */
export function adversarialValue(random: Random, depth = 0): Labelled {
  if (depth < 2 && random() < 0.2) {
    const items = Array.from({ length: 1 + Math.floor(random() * 3) }, () => adversarialValue(random, depth + 1));
    if (random() < 0.5) return { label: `[${items.map((item) => item.label).join(", ")}]`, value: items.map((item) => item.value) };
    return { label: `{${items.map((item) => item.label).join(", ")}}`, value: Object.fromEntries(items.map((item, index) => [pick(random, ["word", "link", "count", "x", `k${index}`]), item.value])) };
  }
  const [label, make] = pick(random, VALUES);
  return { label, value: make() };
}

/** Arguments for `callTool`: mostly objects holding hostile values, sometimes a hostile value itself. */
export function adversarialArguments(random: Random): Labelled {
  if (random() < 0.3) return adversarialValue(random);
  const inner = adversarialValue(random);
  const key = pick(random, ["word", "link", "count", "extra", "__proto__", "constructor"]);
  const value = key === "__proto__" ? JSON.parse(`{"__proto__": 1}`) : { [key]: inner.value };
  if (key === "__proto__") value.word = inner.value;
  return { label: `{ ${key}: ${inner.label} }`, value };
}

const NAMES: Array<[string, unknown]> = [
  ["echo_py", "echo_py"],
  ["echo_py", "echo_py"],
  ["host_echo", "host_echo"],
  ["host_echo", "host_echo"],
  ["code_execution", "code_execution"],
  ["Echo_py", "Echo_py"],
  ["fullwidth ｅcho_py", "ｅcho_py"],
  ["zero-width echo_py", "echo\u200b_py"],
  ["echo_py + NUL", "echo_py\u0000"],
  ["a__b", "a__b"],
  ["local__echo_py", "local__echo_py"],
  ["__proto__", "__proto__"],
  ["constructor", "constructor"],
  ["toString", "toString"],
  ["100,000-char name", "x".repeat(100_000)],
  ["empty name", ""],
  ["lone surrogate name", "echo\ud800"],
  ["undefined", undefined],
  ["number", 42],
  ["Symbol", Symbol("echo_py")],
  ["object", { name: "echo_py" }],
  ["throwing Proxy", throwing("name trap")],
];

export function adversarialName(random: Random): Labelled {
  if (random() < 0.4) return pick(random, [{ label: "echo_py", value: "echo_py" }, { label: "host_echo", value: "host_echo" }]);
  const [label, value] = pick(random, NAMES);
  return { label, value };
}

const OPTIONS: Array<[string, () => unknown]> = [
  ["no options", () => undefined],
  ["no options", () => undefined],
  ["{}", () => ({})],
  ["null", () => null],
  ["aborted signal", () => ({ signal: AbortSignal.abort(new Error("fuzz abort")) })],
  ["aborted signal", () => ({ signal: AbortSignal.abort() })],
  ["signal aborted in 1 ms", () => ({ signal: AbortSignal.timeout(1) })],
  ["live signal", () => ({ signal: new AbortController().signal })],
  ["timeoutMs 0", () => ({ timeoutMs: 0 })],
  ["timeoutMs NaN", () => ({ timeoutMs: Number.NaN })],
  ["timeoutMs 2^31", () => ({ timeoutMs: 2 ** 31 })],
  ["timeoutMs 2^31-1", () => ({ timeoutMs: 2 ** 31 - 1 })],
  ["timeoutMs 1", () => ({ timeoutMs: 1 })],
  ["timeoutMs 50", () => ({ timeoutMs: 50 })],
  ["extra key", () => ({ timeoutMs: 1_000, extra: true })],
  ["signal {}", () => ({ signal: {} })],
  ["parentExecutionId 5", () => ({ parentExecutionId: 5 })],
  ["unknown parentExecutionId", () => ({ parentExecutionId: "no-such-call" })],
  ["throwing getter", () => ({ get timeoutMs() { throw new Error("option getter ran"); } })],
  ["throwing Proxy", () => throwing("option trap")],
];

export function adversarialOptions(random: Random): Labelled {
  // Half the calls pass no options, so that most reach the tool.
  if (random() < 0.5) return { label: "no options", value: undefined };
  const [label, make] = pick(random, OPTIONS);
  return { label, value: make() };
}

const CODE: string[] = [
  "input",
  "1 + 1",
  "throw new Error('fuzz')",
  "await tools.local.host_echo({ word: 'aaa' })",
  "call_tool('local', 'echo_py', { input })",
  "call_tool('local', 'host_echo', { word: 'a'.repeat(28) + '!' })",
  "import('node:fs')",
  "({ toJSON() { throw new Error('toJSON') } })",
  "({ get x() { throw new Error('getter') } })",
  "Symbol('s')",
  "10n",
  "'\\ud800'",
  "",
  "let x = ; ",
  "while (true) {}",
  "x".repeat(100_000),
];

const CODE_OPTIONS: unknown[] = [undefined, {}, { timeout_ms: 300 }, { timeout_ms: -1 }, { timeout_ms: Number.NaN }, { max_tool_calls: 1e9 }, { allowed_servers: ["nope"] }, { bogus: 1 }];

/** A request for `executeCode`: mostly well-formed with hostile input, sometimes hostile itself. */
export function adversarialCodeRequest(random: Random): Labelled {
  if (random() < 0.2) return adversarialValue(random);
  const code = pick(random, CODE);
  const input = adversarialValue(random);
  const options = pick(random, CODE_OPTIONS);
  // An endless loop runs until its budget kills the runtime: keep its budget short.
  const budget = code.startsWith("while") ? { timeout_ms: 300 } : options;
  const request: Record<string, unknown> = { code, input: input.value };
  if (budget !== undefined) request.options = budget;
  return { label: `{ code: ${JSON.stringify(code.slice(0, 40))}, input: ${input.label}, options: ${JSON.stringify(budget)} }`, value: request };
}
