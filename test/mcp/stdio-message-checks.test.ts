/**
 * How the MCP plugin checks what a stdio server sends: the usual message and tool result pass a
 * check by hand (plain-json-rpc-message.ts, tool-result-check.ts), and everything else is judged by
 * the SDK's schemas as before — so a malformed answer from a real (Python) server still fails with
 * a clear error, and an unusual but valid one still passes whole.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import type { Executor } from "../../src/index.js";
import { isPlainJsonRpcMessage } from "../../src/plugins/mcp/plain-json-rpc-message.js";
import { isPlainToolResult } from "../../src/plugins/mcp/tool-result-check.js";
import { openProject } from "./mcp-test-helpers.js";

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "mcp", "crafted-answers.py");

let executor: Executor;
// openProject's executors close after each test.
beforeEach(async () => {
  ({ executor } = await openProject({ mcpServers: { crafted: { command: "python3", args: [SERVER], timeoutMs: 20_000, retry: { retries: 0 } } } }));
}, 30_000);

const call = (tool: string) => executor.callTool(`crafted__${tool}`, {});
const failure = async (tool: string) => {
  const result = await call(tool);
  return result.ok ? result : { code: result.error.code, message: result.error.message.replace(/"id":\d+/g, '"id":N') };
};

describe("answers that pass", () => {
  it("takes a plain text answer, and unusual valid ones (no content, an image, annotations and _meta) through the schema whole", async () => {
    expect(await call("plain")).toMatchObject({ ok: true, value: "plain answer" });
    expect(await call("structured_only")).toMatchObject({ ok: true, value: { a: 1 }, content: [] });
    expect(await call("image")).toMatchObject({ ok: true, content: [{ type: "image", data: "aGk=", mimeType: "image/png" }] });
    expect(await call("annotated")).toMatchObject({ ok: true, value: "kept", content: [{ type: "text", text: "kept", annotations: { priority: 0.5 } }] });
  });

  it("passes a server's error response with keys the schema does not know as the server's error", async () => {
    expect(await failure("error_with_extra")).toMatchObject({ code: "TOOL_FAILED", message: expect.stringContaining("the tool broke") });
  });
});

describe("answers that fail, each with a clear error", () => {
  it("fails a tool result whose fields have the wrong types, naming the field", async () => {
    expect(await failure("text_not_string")).toMatchInlineSnapshot(`
      {
        "code": "INVALID_OUTPUT",
        "message": "Server "crafted" sent a reply that is not valid MCP: content.0: Invalid input",
      }
    `);
    expect(await failure("is_error_not_boolean")).toMatchInlineSnapshot(`
      {
        "code": "INVALID_OUTPUT",
        "message": "Server "crafted" sent a reply that is not valid MCP: isError: Invalid input: expected boolean, received string",
      }
    `);
    expect(await failure("structured_not_object")).toMatchInlineSnapshot(`
      {
        "code": "INVALID_OUTPUT",
        "message": "Server "crafted" sent a reply that is not valid MCP: structuredContent: Expected an object",
      }
    `);
  });

  it("fails an envelope the strict JSON-RPC schema refuses (an extra key, a _meta of the wrong shape) at once", async () => {
    expect(await failure("extra_envelope_key")).toMatchInlineSnapshot(`
      {
        "code": "INVALID_OUTPUT",
        "message": "Server "crafted" sent a message that is not valid JSON-RPC (it does not match the JSON-RPC message shapes: {"jsonrpc":"2.0","id":N,"result":{"content":[]},"extra":1}); the connection was reset",
      }
    `);
    expect(await failure("meta_token_not_id")).toMatchInlineSnapshot(`
      {
        "code": "INVALID_OUTPUT",
        "message": "Server "crafted" sent a message that is not valid JSON-RPC (it does not match the JSON-RPC message shapes: {"jsonrpc":"2.0","id":N,"result":{"content":[],"_meta":{"progressToken":[1]}}}); the connection was reset",
      }
    `);
  });
});

it("leaves to the schema every message and result it does not take by hand", () => {
  expect(isPlainJsonRpcMessage({ jsonrpc: "2.0", id: 1, result: { content: [] } })).toBe(true);
  expect(isPlainJsonRpcMessage({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } })).toBe(true);
  expect(isPlainJsonRpcMessage({ jsonrpc: "2.0", id: 1, result: { _meta: {} } })).toBe(false);
  expect(isPlainJsonRpcMessage({ jsonrpc: "2.0", id: 1.5, result: {} })).toBe(false);
  expect(isPlainJsonRpcMessage({ jsonrpc: "2.0", id: 1, error: { code: 1, message: "m" } })).toBe(false);
  expect(isPlainJsonRpcMessage({ jsonrpc: "2.0", id: 1, method: "ping", params: [] })).toBe(false);
  expect(isPlainToolResult({ content: [{ type: "text", text: "a" }], isError: false, structuredContent: {} })).toBe(true);
  expect(isPlainToolResult({ content: [{ type: "text", text: "a", annotations: {} }] })).toBe(false);
  expect(isPlainToolResult({ structuredContent: {} })).toBe(false);
});
