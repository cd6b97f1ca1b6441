/**
 * The console's JSON endpoints under `/console/api/`, over the executor's public surface: the
 * servers with their state, the tools with their schemas, a call from the playground, the recent
 * executions from the execution log, and tool trust (review, approve, revoke). The registry
 * management API (/api/tools) serves tools.json entries only, behind its own key, so the console has
 * its own read views here, behind the served port's token.
 */
import type { Executor } from "../../index.js";
import type { ExecutionLogReader } from "../../logs.js";

/** Who console calls are logged as (`caller.name` in the execution log). */
export const CONSOLE_CALLER = { name: "toolexec-console" };
/** Executions a page shows by default, and at most. */
export const DEFAULT_RECENT_EXECUTIONS = 50;
export const MAX_RECENT_EXECUTIONS = 500;

/** An answer: a status and a JSON body. */
export interface ApiAnswer {
  status: number;
  body: unknown;
}

export interface ConsoleRequest {
  method: string;
  /** The path after `/console/api`, e.g. `/tools`. */
  route: string;
  query: URLSearchParams;
  /** The JSON body of a POST (already read and parsed). */
  body: () => Promise<unknown>;
}

const fault = (status: number, code: string, message: string): ApiAnswer => ({ status, body: { ok: false, error: { code, message } } });

/** `{ target }` from a trust request's body. */
function targetOf(body: unknown): string | undefined {
  const target = (body as { target?: unknown } | null)?.target;
  return typeof target === "string" && target !== "" ? target : undefined;
}

async function callFromPlayground(executor: Executor, body: unknown): Promise<ApiAnswer> {
  if (body === null || typeof body !== "object" || Array.isArray(body) || typeof (body as { tool?: unknown }).tool !== "string") {
    return fault(400, "INVALID_INPUT", 'Expected a JSON object { "tool": "<name>", "arguments": { … } }');
  }
  const { tool, arguments: args } = body as { tool: string; arguments?: unknown };
  return { status: 200, body: await executor.callTool(tool, args ?? {}, { caller: CONSOLE_CALLER }) };
}

/**
 * @example
 * const answer = await answerConsoleRequest(executor, log, { method: "GET", route: "/tools", query, body });
 */
export async function answerConsoleRequest(executor: Executor, log: ExecutionLogReader | undefined, request: ConsoleRequest): Promise<ApiAnswer> {
  const { method, route } = request;
  const allowed = (methods: string) => (methods === method ? undefined : fault(405, "INVALID_INPUT", `Method ${method} is not allowed on /console/api${route}; allowed: ${methods}`));
  switch (route) {
    case "/servers":
      return allowed("GET") ?? { status: 200, body: { root: executor.root, servers: executor.servers(), tools: (await executor.listTools()).length } };
    case "/tools":
      return allowed("GET") ?? { status: 200, body: { tools: await executor.listTools() } };
    case "/call":
      return allowed("POST") ?? callFromPlayground(executor, await request.body());
    case "/executions": {
      const limit = Number(request.query.get("limit") ?? DEFAULT_RECENT_EXECUTIONS);
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_RECENT_EXECUTIONS) return fault(400, "INVALID_INPUT", `Expected limit to be a whole number from 1 to ${MAX_RECENT_EXECUTIONS}`);
      return allowed("GET") ?? { status: 200, body: { logDir: log?.dir ?? null, executions: log ? await log.recent(limit) : [] } };
    }
    case "/trust":
      return allowed("GET") ?? { status: 200, body: executor.reviewTools() };
    case "/trust/approve":
    case "/trust/revoke": {
      const refused = allowed("POST");
      if (refused) return refused;
      const target = targetOf(await request.body());
      if (target === undefined) return fault(400, "INVALID_INPUT", 'Expected a JSON object { "target": "<server or server__tool>" }');
      const decision = route === "/trust/approve" ? await executor.approveTools(target) : await executor.revokeTools(target);
      return { status: decision.ok ? 200 : decision.error.code === "TOOL_NOT_FOUND" ? 404 : 400, body: decision };
    }
    default:
      return fault(404, "TOOL_NOT_FOUND", `No console endpoint /console/api${route}`);
  }
}
