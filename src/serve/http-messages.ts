/** The plain HTTP answers and request bodies of `serveHttp`: JSON replies, JSON-RPC errors, bounded body reads. */
import type { IncomingMessage, ServerResponse } from "node:http";

export function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (response.headersSent) return void response.end();
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

export const jsonRpcError = (code: number, message: string) => ({ jsonrpc: "2.0", error: { code, message }, id: null });

export type BodyRead = { ok: true; value: unknown } | { ok: false; status: 400 | 413; message: string };

/**
 * The request body as JSON, or the status to answer with (413 past the limit, 429 past the
 * session's bytes in flight as `meter` counts them, 400 for bad JSON).
 */
export function readBody(request: IncomingMessage, limit: number): Promise<BodyRead>;
export function readBody(request: IncomingMessage, limit: number, meter: ((bytes: number) => string | undefined) | undefined): Promise<BodyRead | { ok: false; status: 429; message: string }>;
export async function readBody(request: IncomingMessage, limit: number, meter?: (bytes: number) => string | undefined): Promise<BodyRead | { ok: false; status: 429; message: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) return { ok: false, status: 413, message: `Payload Too Large: Request body must not exceed ${limit} bytes` };
    const refusal = meter?.((chunk as Buffer).length);
    if (refusal !== undefined) return { ok: false, status: 429, message: refusal };
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString("utf8")) };
  } catch (error) {
    return { ok: false, status: 400, message: `Request body is not valid JSON: ${(error as Error).message}` };
  }
}
