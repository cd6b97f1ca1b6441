/**
 * The registry management API on the served port (`/api/tools`): list, get, create, replace, patch
 * and delete tools.json tools through the executor's registry writes, JSON in and out with the
 * error envelope (`{ ok: false, error: { code, message, details? } }`), an API key on every request
 * (`Authorization: Bearer`, compared in constant time; never taken from the request otherwise),
 * `ETag`/`If-Match` for optimistic concurrency, and one audit line per change.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { isToolexecError, type Executor } from "../../index.js";
import type { RegistryChange } from "../../config.js";
import { checkRequest, type GuardOptions } from "../http-guard.js";
import { keyFingerprint } from "./api-key.js";
import type { AuditWriter } from "./audit-log.js";
import { MANAGEMENT_API_PATH, matchManagementRoute, type ManagementOperation } from "./management-routes.js";

export type BodyRead = { ok: true; value: unknown } | { ok: false; status: 400 | 413; message: string };

export interface ManagementApiOptions {
  apiKey: string;
  /** The served port's Host/Origin rules (its own token does not apply here: the API key does). */
  guard: Omit<GuardOptions, "token">;
  readBody(request: IncomingMessage): Promise<BodyRead>;
  audit: AuditWriter;
}

export interface ManagementApi {
  /** Whether `pathname` belongs to the management API. */
  handles(pathname: string): boolean;
  handle(request: IncomingMessage, response: ServerResponse, pathname: string): Promise<void>;
}

/** Thrown inside a handler to answer with a status and the error envelope. */
class HttpFault extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (response.headersSent) return void response.end();
  response.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers });
  response.end(JSON.stringify(body));
}

const quoted = (tag: string) => `"${tag}"`;

/** The first tag of an `If-Match` header without quotes or `W/`; `*` (any) and absence are no condition. */
function ifMatchOf(request: IncomingMessage): string | undefined {
  const header = request.headers["if-match"];
  if (header === undefined || header.trim() === "*") return undefined;
  const first = header.split(",")[0]!.trim().replace(/^W\//, "");
  return first.startsWith('"') && first.endsWith('"') ? first.slice(1, -1) : first;
}

/** Which status a registry error answers with. */
function statusOf(code: string, details: Record<string, unknown> | undefined): number {
  switch (code) {
    case "INVALID_INPUT":
      return 400;
    case "TOOL_NOT_FOUND":
    case "CONFIG_MISSING":
      return 404;
    case "CONFLICT":
      return details?.reason === "exists" ? 409 : 412;
    case "CONFIG_INVALID":
      return 409;
    case "EXECUTOR_CLOSED":
    case "SERVICE_UNAVAILABLE":
      return 503;
    default:
      return 500;
  }
}

/** `{ entry, script? }`, the body of a create or replace. */
function entryBody(body: unknown): { entry: unknown; script?: string } {
  if (body === null || typeof body !== "object" || Array.isArray(body) || !("entry" in body)) {
    throw new HttpFault(400, "INVALID_INPUT", 'Expected a JSON object { "entry": { ...tools.json entry }, "script"?: "the script\'s content" }');
  }
  const { entry, script, ...rest } = body as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new HttpFault(400, "INVALID_INPUT", `Unknown key ${JSON.stringify(unknown[0])} in the body; expected "entry" and optionally "script"`);
  if (script !== undefined && typeof script !== "string") throw new HttpFault(400, "INVALID_INPUT", 'Expected "script" to be the script\'s content as a string');
  return script === undefined ? { entry } : { entry, script };
}

/**
 * @example
 * const api = createManagementApi(executor, { apiKey, guard, readBody, audit: createAuditFile(file) });
 * if (api.handles(url.pathname)) return api.handle(request, response, url.pathname);
 */
export function createManagementApi(executor: Executor, options: ManagementApiOptions): ManagementApi {
  const key = keyFingerprint(options.apiKey);

  const readJson = async (request: IncomingMessage): Promise<unknown> => {
    const read = await options.readBody(request);
    if (!read.ok) throw new HttpFault(read.status, "INVALID_INPUT", read.message);
    if (read.value === undefined) throw new HttpFault(400, "INVALID_INPUT", "Expected a JSON body");
    return read.value;
  };

  const audited = async (request: IncomingMessage, change: RegistryChange) => {
    try {
      await options.audit({
        time: new Date().toISOString(),
        actor: { key, ...(request.socket.remoteAddress ? { address: request.socket.remoteAddress } : {}), ...(request.headers["user-agent"] ? { userAgent: request.headers["user-agent"] } : {}) },
        action: change.action,
        tool: change.tool,
        before: change.before,
        after: change.after,
        ...(change.entryBefore === undefined ? {} : { entryBefore: change.entryBefore }),
        ...(change.entry === undefined ? {} : { entryAfter: change.entry.etag }),
        ...(change.script === undefined ? {} : { script: change.script }),
      });
    } catch (error) {
      process.emitWarning(`toolexec: could not write the registry audit line: ${(error as Error).message}`);
    }
    return change;
  };

  const operations: Record<ManagementOperation, (request: IncomingMessage, response: ServerResponse, name: string) => Promise<void>> = {
    async listTools(_request, response) {
      const snapshot = await executor.readRegistry();
      send(response, 200, snapshot, { etag: quoted(snapshot.etag) });
    },
    async getTool(_request, response, name) {
      const found = (await executor.readRegistry()).tools.find((tool) => tool.name === name);
      if (!found) throw new HttpFault(404, "TOOL_NOT_FOUND", `No tool named ${JSON.stringify(name)} in tools.json`);
      send(response, 200, found, { etag: quoted(found.etag) });
    },
    async createTool(request, response) {
      const { entry, script } = entryBody(await readJson(request));
      const ifMatch = ifMatchOf(request);
      const change = await audited(request, await executor.registerTool(entry, { ...(script === undefined ? {} : { script }), ...(ifMatch === undefined ? {} : { ifMatch }) }));
      send(response, 201, { tool: change.entry, etag: change.after }, { etag: quoted(change.entry!.etag), location: `${MANAGEMENT_API_PATH}/${encodeURIComponent(change.tool)}` });
    },
    async replaceTool(request, response, name) {
      const { entry, script } = entryBody(await readJson(request));
      const ifMatch = ifMatchOf(request);
      const change = await audited(request, await executor.replaceTool(name, entry, { ...(script === undefined ? {} : { script }), ...(ifMatch === undefined ? {} : { ifMatch }) }));
      send(response, 200, { tool: change.entry, etag: change.after }, { etag: quoted(change.entry!.etag) });
    },
    async patchTool(request, response, name) {
      const patch = await readJson(request);
      const ifMatch = ifMatchOf(request);
      const change = await audited(request, await executor.updateTool(name, patch, ifMatch === undefined ? {} : { ifMatch }));
      send(response, 200, { tool: change.entry, etag: change.after }, { etag: quoted(change.entry!.etag) });
    },
    async deleteTool(request, response, name) {
      const ifMatch = ifMatchOf(request);
      const change = await audited(request, await executor.removeTool(name, ifMatch === undefined ? {} : { ifMatch }));
      send(response, 200, { deleted: change.tool, etag: change.after });
    },
  };

  return {
    handles: (pathname) => pathname === MANAGEMENT_API_PATH || pathname.startsWith(`${MANAGEMENT_API_PATH}/`),
    async handle(request, response, pathname) {
      try {
        const verdict = checkRequest(request, { ...options.guard, token: options.apiKey });
        if (!verdict.ok) {
          const message = verdict.status === 401 ? "Missing or wrong API key: send Authorization: Bearer <key>" : verdict.message;
          throw new HttpFault(verdict.status, verdict.status === 401 ? "AUTH_FAILED" : "INVALID_INPUT", message, verdict.status === 401 ? { "www-authenticate": 'Bearer realm="toolexec-registry"' } : {});
        }
        const route = matchManagementRoute(request.method ?? "GET", pathname);
        if (!route.ok) {
          if (route.status === 405) throw new HttpFault(405, "INVALID_INPUT", `Method ${request.method} is not allowed here; allowed: ${route.allow!.join(", ")}`, { allow: route.allow!.join(", ") });
          throw new HttpFault(404, "TOOL_NOT_FOUND", `No such route: ${pathname} (see docs/registry-api.md)`);
        }
        await operations[route.operation](request, response, route.name ?? "");
      } catch (error) {
        if (error instanceof HttpFault) {
          return send(response, error.status, { ok: false, error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) } }, error.headers);
        }
        if (isToolexecError(error)) {
          return send(response, statusOf(error.code, error.details), { ok: false, error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) } });
        }
        send(response, 500, { ok: false, error: { code: "SERVICE_UNAVAILABLE", message: `The registry write failed: ${(error as Error)?.message ?? String(error)}` } });
      }
    },
  };
}
