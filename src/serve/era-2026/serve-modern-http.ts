/**
 * The 2026-07-28 leg of `serveHttp`: the SDK v2 handler (`createMcpHandler`, modern only; the
 * 2025 era keeps serve-http.ts's sessions) with a fresh server per request, so any replica can
 * answer any request. Tool-list changes reach the clients listening with `subscriptions/listen`
 * through the handler's event bus.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createMcpHandler, type AuthInfo, type ServerEventBus } from "@modelcontextprotocol/server";
import { toNodeHandler } from "@modelcontextprotocol/node";
import type { Executor } from "../../index.js";
import type { CallerAccess } from "../../plugin.js";
import { ACCESS_KEY, createModernServer, humanInputCodec } from "./modern-server.js";

export interface ModernHttpOptions {
  name: string;
  version: string;
  /** The shared HMAC key of `requestState` (request-state-key.ts). */
  key: string | Uint8Array;
  maxBodyBytes: number;
  /** Where `subscriptions/listen` streams take their change events from; an in-process bus by default. */
  bus?: ServerEventBus;
}

export interface ModernHttp {
  /** Serve one 2026-era request whose body was already read, as the admitted principal's `access` when there is one. */
  handle(request: IncomingMessage, response: ServerResponse, body: unknown, access?: CallerAccess): Promise<void>;
  /** Abort modern exchanges under way, end the listen streams, stop following the registry. */
  close(): Promise<void>;
}

/**
 * @example
 * const modern = createModernHttp(executor, { name: "toolexec", version, key, maxBodyBytes });
 * if (await isModernRequest(request, body)) return modern.handle(request, response, body);
 */
export function createModernHttp(executor: Executor, options: ModernHttpOptions): ModernHttp {
  const served = { name: options.name, version: options.version, codec: humanInputCodec(options.key) };
  // The principal's access rides with the request as the SDK's pass-through `authInfo` (never read from headers).
  const handler = createMcpHandler((context) => createModernServer(executor, { ...served, access: context.authInfo?.extra?.[ACCESS_KEY] as CallerAccess | undefined }), {
    legacy: "reject",
    maxRequestBodySize: options.maxBodyBytes,
    ...(options.bus === undefined ? {} : { bus: options.bus }),
  });
  const serve = toNodeHandler(handler, { maxRequestBodySize: options.maxBodyBytes });
  const unsubscribe = executor.on("tools:changed", () => handler.notify.toolsChanged());
  return {
    handle: (request, response, body, access) => {
      if (access !== undefined) (request as IncomingMessage & { auth?: AuthInfo }).auth = { token: "", clientId: access.principal.id, scopes: [], extra: { [ACCESS_KEY]: access } };
      return serve(request, response, body);
    },
    async close() {
      unsubscribe();
      await handler.close();
    },
  };
}
