/** Era routing over HTTP: the two common cases are decided from the parsed body alone, the rest by the SDK's classifier. */
import type { IncomingMessage } from "node:http";
import { expect, it } from "vitest";
import { isModernRequest } from "../../../src/serve/era-2026/request-era.js";

const claim = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };
/** A request of which the routing may read the method and headers only: building a web Request from it throws. */
const bare = (method: string, headers: Record<string, string> = {}) =>
  new Proxy({ method, headers }, {
    get(target, key) {
      if (key === "method" || key === "headers" || key === "then") return target[key as "method" | "headers"];
      throw new Error(`The routing read request.${String(key)}`);
    },
  }) as unknown as IncomingMessage;

it("routes a POST whose body carries the envelope claim (a batch with one too) to the modern path without building a web Request", async () => {
  expect(await isModernRequest(bare("POST"), { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", _meta: claim } })).toBe(true);
  expect(await isModernRequest(bare("POST", { "mcp-protocol-version": "2026-07-28" }), [{ jsonrpc: "2.0", method: "notifications/progress" }, { jsonrpc: "2.0", id: 2, method: "ping", params: { _meta: claim } }])).toBe(true);
});

it("keeps a 2025 request, a GET and a claim-less POST with an old header on the 2025 path", async () => {
  expect(await isModernRequest(bare("POST", { "mcp-protocol-version": "2025-11-25" }), { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo" } })).toBe(false);
  expect(await isModernRequest(bare("POST"), { jsonrpc: "2.0", id: 1, method: "initialize", params: {} })).toBe(false);
  expect(await isModernRequest(bare("GET", { "mcp-protocol-version": "2026-07-28" }), undefined)).toBe(false);
});
