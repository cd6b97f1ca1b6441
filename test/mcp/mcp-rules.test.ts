/** The small rules the plugin is built on: tool names, result unwrapping, backoff, Retry-After, dotenv. */
import { describe, expect, it } from "vitest";
import { parseDotenv } from "../../src/core/config/parse-dotenv.js";
import { backoffDelay, parseRetryAfter } from "../../src/core/retry/backoff-delay.js";
import { exposedToolName } from "../../src/plugins/mcp/tool-definitions.js";
import { unwrapToolResult } from "../../src/plugins/mcp/unwrap-tool-result.js";
import { PLUGIN_TOOL_NAME_PATTERN } from "../../src/plugin.js";

describe("exposedToolName", () => {
  it("joins server and tool with __, keeping MCP's tool-name characters and 128 characters", () => {
    expect(exposedToolName("github", "create_issue")).toBe("github__create_issue");
    expect(exposedToolName("my server", "get/weather")).toBe("my_server__get_weather");
    const long = exposedToolName("s".repeat(100), "t".repeat(100));
    expect(long).toHaveLength(128);
    expect(long).toMatch(PLUGIN_TOOL_NAME_PATTERN);
    expect(exposedToolName("s".repeat(100), "u".repeat(100))).not.toBe(long);
  });
});

describe("unwrapToolResult", () => {
  const text = (value: string) => ({ type: "text" as const, text: value });
  it("prefers structuredContent, then one JSON text part, then the text", () => {
    expect(unwrapToolResult("s", "t", { content: [text("{}")], structuredContent: { a: 1 } })).toMatchObject({ ok: true, value: { a: 1 } });
    expect(unwrapToolResult("s", "t", { content: [text('{"a":[1,2]}')] })).toEqual({ ok: true, value: { a: [1, 2] }, content: [text('{"a":[1,2]}')] });
    expect(unwrapToolResult("s", "t", { content: [text("plain words")] })).toMatchObject({ ok: true, value: "plain words" });
    expect(unwrapToolResult("s", "t", { content: [text("one"), text("two")] })).toMatchObject({ ok: true, value: "one\ntwo" });
    const image = { type: "image" as const, data: "iVBORw0KGgo=", mimeType: "image/png" };
    expect(unwrapToolResult("s", "t", { content: [image] })).toMatchObject({ ok: true, value: [image] });
  });

  it("turns isError into TOOL_FAILED with the server's text", () => {
    expect(unwrapToolResult("s", "t", { isError: true, content: [text("no such file")] })).toEqual({
      ok: false,
      error: { code: "TOOL_FAILED", message: "no such file", details: { server: "s", tool: "t", content: [text("no such file")] } },
    });
    expect(unwrapToolResult("s", "t", { isError: true, content: [] })).toMatchObject({ ok: false, error: { message: 'Tool "t" of server "s" reported an error without text' } });
  });
});

describe("backoffDelay", () => {
  const policy = { retries: 3, minDelayMs: 200, maxDelayMs: 1_000 };
  it("doubles from minDelayMs, jittered into the upper half, capped at maxDelayMs", () => {
    expect(backoffDelay(policy, 0, () => 0)).toBe(100);
    expect(backoffDelay(policy, 0, () => 1)).toBe(200);
    expect(backoffDelay(policy, 2, () => 1)).toBe(800);
    expect(backoffDelay(policy, 3, () => 1)).toBe(1_000);
    expect(backoffDelay(policy, 50, () => 0.5)).toBe(750);
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds and HTTP dates, and ignores anything else", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("2", now)).toBe(2_000);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:05 GMT", now)).toBe(5_000);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter("99999", now)).toBe(600_000);
  });
});

describe("parseDotenv", () => {
  it("reads KEY=value lines, quotes, comments and export", () => {
    expect(parseDotenv('# comment\nexport A=1\nB="two words"\nC=\'$literal\'\nD=x # note\n\n')).toEqual({ ok: true, values: { A: "1", B: "two words", C: "$literal", D: "x" } });
    expect(parseDotenv("A=1\nnot a line")).toEqual({ ok: false, line: 2, message: 'Expected KEY=value, got "not a line"' });
  });
});
