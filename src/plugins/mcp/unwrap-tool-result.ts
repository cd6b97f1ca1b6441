/**
 * An MCP `tools/call` result as a plugin result: `structuredContent`, else a single text part parsed
 * as JSON, else the text; the raw content kept as `content`. `isError` results fail with
 * `TOOL_FAILED` and the server's text.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { PluginResult } from "../../core/plugin-contract.js";
import { toolError } from "../../core/tool-result.js";

/** The server's error text is cut to this in the message; the whole content stays in `details`. */
const MAX_ERROR_MESSAGE_LENGTH = 1_000;

const textsOf = (content: CallToolResult["content"]) => content.filter((part) => part.type === "text").map((part) => (part as { text: string }).text);

/** What JSON text can start with, after JSON's own whitespace. */
const JSON_START = /^[ \t\n\r]*[{["\-0-9tfn]/;

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  // Most plain-text answers fail this test: checking first spares a thrown SyntaxError per call.
  if (!JSON_START.test(text)) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * @example
 * unwrapToolResult("weather", "forecast", { content: [{ type: "text", text: '{"temp":21}' }] });
 * // { ok: true, value: { temp: 21 }, content: [{ type: "text", text: '{"temp":21}' }] }
 */
export function unwrapToolResult(server: string, tool: string, result: CallToolResult): PluginResult {
  const content = result.content ?? [];
  if (result.isError === true) {
    const text = textsOf(content).join("\n").trim();
    const shown = text.length > MAX_ERROR_MESSAGE_LENGTH ? `${text.slice(0, MAX_ERROR_MESSAGE_LENGTH - 3)}...` : text;
    return toolError("TOOL_FAILED", shown === "" ? `Tool "${tool}" of server "${server}" reported an error without text` : shown, {
      server,
      tool,
      content,
      ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
    });
  }
  if (result.structuredContent !== undefined) return { ok: true, value: result.structuredContent, content };
  const texts = textsOf(content);
  if (content.length === 1 && texts.length === 1) {
    const parsed = parseJson(texts[0]!);
    return { ok: true, value: parsed.ok ? parsed.value : texts[0], content };
  }
  // Several parts: their text joined; parts with no text at all (an image) are the value as they are.
  return { ok: true, value: texts.length > 0 ? texts.join("\n") : content, content };
}

/** Nodes measured between two turns of the event loop: a few ms of work at most. */
const NODES_PER_TURN = 20_000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Roughly how many bytes `value` takes as JSON, stopping early past `limit`. Cheaper than
 * `JSON.stringify` on large answers, and exact enough for a size cap. An answer of hundreds of
 * thousands of keys is measured a slice at a time, letting other work run between slices: one walk
 * over it held the event loop for a second.
 */
export async function estimateJsonBytes(value: unknown, limit: number): Promise<number> {
  let total = 0;
  let nodes = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && total <= limit) {
    const current = stack.pop();
    if (typeof current === "string") total += current.length + 2;
    else if (typeof current === "number" || typeof current === "boolean" || current === null || current === undefined) total += 5;
    else if (Array.isArray(current)) {
      total += 2 + current.length;
      for (const item of current) {
        stack.push(item);
        if (++nodes % NODES_PER_TURN === 0) await nextTurn();
      }
    } else if (typeof current === "object") {
      // for-in, not Object.entries: no array per key on answers of hundreds of thousands of keys.
      const record = current as Record<string, unknown>;
      for (const key in record) {
        total += key.length + 4;
        stack.push(record[key]);
        if (++nodes % NODES_PER_TURN === 0) await nextTurn();
      }
    }
  }
  return total;
}
