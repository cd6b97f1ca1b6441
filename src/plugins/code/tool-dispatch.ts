/**
 * Sandboxed code's tool calls, on the host: resolve the name, apply the run's policy (allowed
 * servers, then the call cap), and run the call through the executor's own pipeline, tied to the
 * run by `parentExecutionId` and cancelled when the run ends (its call group). Every call is traced.
 */
import { inCallGroup, type CallGroup } from "../../core/executor/call-group.js";
import { callWithArgumentsHandedOver } from "../../core/executor/handed-over-arguments.js";
import { closestMatch } from "../../core/json/describe-value.js";
import type { CallToolOptions, ToolErrorInfo } from "../../core/plugin-contract.js";
import type { ToolResult } from "../../core/tool-result.js";
import { registryNameAt, type CodeModeTool } from "./declarations/index.js";
import { checkArgumentNodes, checkTargetNames, MAX_NAME_LENGTH_FROM_CODE } from "./frame-limits.js";
import { contentForCode } from "./sandbox-content.js";
import type { ToolCatalog } from "./tool-catalog.js";

/**
 * What code receives from `call_tool`: never more than code and message of a failure; `content`
 * only for results with more than text (see sandbox-content.ts).
 */
export type SandboxEnvelope = { ok: true; value: unknown; content?: unknown[] } | { ok: false; error: { code: string; message: string } };

/** One line of a result's `tool_calls`. */
export interface ToolCallTrace {
  server: string;
  tool: string;
  duration_ms: number;
  ok: boolean;
  /** The failure's code, when `ok` is false. */
  error_code?: string;
}

/** A result lists at most this many calls; the log line has the total. */
export const MAX_TRACED_CALLS = 1_000;

export interface CallPolicy {
  /** `null` allows every server; `[]` none. */
  allowedServers: readonly string[] | null;
  /** 0 is unlimited. */
  maxToolCalls: number;
}

export interface ToolDispatcherOptions {
  catalog: ToolCatalog;
  policy: CallPolicy;
  executionId: string;
  /** The run's call group (ended when the run ends: its calls under way are cancelled, later ones refused), made on first use. */
  group(): CallGroup;
  /** Why the executor has no tool `name` (the pipeline's own answer, nothing called); undefined when it has one, listed to code or not. */
  explainMissing(name: string): ToolErrorInfo | undefined;
  callTool(name: string, args: unknown, options: CallToolOptions): Promise<ToolResult>;
}

export interface ToolDispatcher {
  /**
   * Run one call the sandbox asked for; `target` comes from the runtime and is checked here.
   * `args` is the runtime frame's own parse, handed over to the call (nobody else holds it).
   */
  dispatch(target: unknown, args: unknown): Promise<SandboxEnvelope>;
  readonly trace: ToolCallTrace[];
  /**
   * Calls made (refused ones included). A method, not a getter: an object literal's getter is a
   * new function per dispatcher, which V8 keeps in a property map of its own, and that kept each
   * run's objects alive across scavenges.
   */
  count(): number;
}

const failure = (code: string, message: string): SandboxEnvelope => ({ ok: false, error: { code, message } });

/**
 * A target code mode does not list: its refusal, and the registry name the executor may explain
 * (absent for a target that names no tool).
 */
interface Unlisted {
  refusal: { ok: false; error: { code: string; message: string } };
  name?: string;
}

function resolveTarget(catalog: ToolCatalog, target: unknown): CodeModeTool | Unlisted {
  const { server, tool, name } = (target ?? {}) as Record<string, unknown>;
  if (typeof server === "string" && typeof tool === "string") {
    const entry = catalog.byAddress.get(server)?.get(tool) ?? catalog.hidden?.byAddress.get(server)?.get(tool);
    if (entry) return entry;
    const hint = closestMatch(`${server}.${tool}`, catalog.entries.map((candidate) => `${candidate.server}.${candidate.tool}`));
    const refusal = notFound(`No tool ${server}.${tool}${hint ? `; did you mean ${hint}?` : ""} (search_tools("words") lists tools)`);
    return { refusal, name: registryNameAt(server, tool) };
  }
  if (typeof name === "string") {
    const entry = catalog.byName.get(name) ?? catalog.hidden?.byName.get(name);
    if (entry) return entry;
    const hint = closestMatch(name, catalog.byName.keys());
    return { refusal: notFound(`No tool named "${name}"${hint ? `; did you mean "${hint}"?` : ""} (search_tools("words") lists tools)`), name };
  }
  return { refusal: { ok: false, error: { code: "INVALID_INPUT", message: "A tool call needs a server and a tool name, or a registry name" } } };
}

const notFound = (message: string): Unlisted["refusal"] => ({ ok: false, error: { code: "TOOL_NOT_FOUND", message } });

/**
 * @example
 * const dispatcher = createToolDispatcher({ catalog, policy: { allowedServers: null, maxToolCalls: 0 }, executionId, group: () => group, callTool });
 * const envelope = await dispatcher.dispatch({ server: "local", tool: "echo" }, { a: 1 });
 */
export function createToolDispatcher(options: ToolDispatcherOptions): ToolDispatcher {
  const { catalog, policy } = options;
  const trace: ToolCallTrace[] = [];
  let count = 0;
  let runGroup: CallGroup | undefined;
  const groupOfRun = () => (runGroup ??= options.group());

  /** A trace line in call order, filled in when the call ends. */
  const record = (server: string, tool: string): ToolCallTrace => {
    const entry: ToolCallTrace = { server, tool, duration_ms: 0, ok: false };
    if (trace.length < MAX_TRACED_CALLS) trace.push(entry);
    return entry;
  };

  const allows = (server: string) => policy.allowedServers === null || policy.allowedServers.includes(server);

  /**
   * Why a tool code mode does not list is missing, when the executor knows more than "no such
   * tool" (a quarantined tool: TOOL_QUARANTINED with what changed; a server that is down): the
   * pipeline's answer for a name outside the registry, asked without calling anything. Nothing is
   * asked for a name code may not call (excluded, or in the registry but not listed to code), on a
   * server the run does not allow, past the call cap or after the run: those stay TOOL_NOT_FOUND.
   * `server` is "" for a call by registry name; the answer's `details.server` is then checked.
   */
  const explainUnlisted = (name: string, server: string): { code: string; message: string; server?: string; tool?: string } | undefined => {
    if (groupOfRun().endedWith !== undefined || (server !== "" && !allows(server)) || (policy.maxToolCalls > 0 && count > policy.maxToolCalls)) return undefined;
    if (catalog.excluded.has(name)) return undefined;
    const error = options.explainMissing(name);
    if (error === undefined || error.code === "TOOL_NOT_FOUND") return undefined;
    const details = (error.details ?? {}) as Record<string, unknown>;
    const owner = typeof details.server === "string" ? details.server : undefined;
    if (owner !== undefined && !allows(owner)) return undefined;
    return { code: error.code, message: error.message, ...(owner === undefined ? {} : { server: owner }), ...(typeof details.tool === "string" ? { tool: details.tool } : {}) };
  };

  return {
    trace,
    count: () => count,
    async dispatch(target, args) {
      count++;
      // Checked before any lookup, suggestion or trace line: those grow with the names.
      const oversized = checkTargetNames(target) ?? checkArgumentNodes(args);
      const resolved = oversized === undefined ? resolveTarget(catalog, target) : { refusal: failure(oversized.code, oversized.message) as Unlisted["refusal"] };
      const { server, tool } = "refusal" in resolved ? describeTarget(target) : resolved;
      const entry = record(server, tool);
      const refuse = (code: string, message: string) => {
        entry.error_code = code;
        return failure(code, message);
      };
      if ("refusal" in resolved) {
        const explained = resolved.name === undefined ? undefined : explainUnlisted(resolved.name, server);
        if (explained?.server !== undefined) entry.server = explained.server;
        if (explained?.tool !== undefined) entry.tool = explained.tool;
        const { code, message } = explained ?? resolved.refusal.error;
        return refuse(code, message);
      }
      const group = groupOfRun();
      if (group.endedWith !== undefined) return refuse("CANCELLED", "This execution has already ended; its tool calls are refused");
      if (!allows(server)) {
        const allowed = policy.allowedServers!.length === 0 ? "no server is allowed" : `allowed: ${policy.allowedServers!.join(", ")}`;
        return refuse("SERVER_NOT_ALLOWED", `Server "${server}" is not allowed in this execution (${allowed})`);
      }
      if (policy.maxToolCalls > 0 && count > policy.maxToolCalls) {
        return refuse("MAX_TOOL_CALLS_EXCEEDED", `This execution may make at most ${policy.maxToolCalls} tool calls; ${server}.${tool} was call ${count}`);
      }
      const started = performance.now();
      let result: ToolResult;
      try {
        result = await callWithArgumentsHandedOver(args, () => options.callTool(resolved.name, args, inCallGroup({ parentExecutionId: options.executionId }, group)));
      } catch (error) {
        const code = typeof (error as { code?: unknown })?.code === "string" ? (error as { code: string }).code : "PLUGIN_FAILED";
        return refuse(code, (error as Error)?.message ?? String(error));
      }
      entry.duration_ms = Math.round((performance.now() - started) * 1000) / 1000;
      entry.ok = result.ok;
      if (!result.ok) entry.error_code = result.error.code;
      if (!result.ok) return failure(result.error.code, result.error.message);
      const content = contentForCode(result.content);
      if (content === undefined) return { ok: true, value: result.value };
      // A result of images alone has its blocks as its value (docs/mcp.md): bounded the same way.
      return { ok: true, value: result.value === result.content ? content : result.value, content };
    },
  };
}

/** Server and tool of an unresolved target, for the trace: an over-long name is cut there. */
function describeTarget(target: unknown): { server: string; tool: string } {
  const { server, tool, name } = (target ?? {}) as Record<string, unknown>;
  if (typeof server === "string" && typeof tool === "string") return { server: cut(server), tool: cut(tool) };
  return { server: "", tool: typeof name === "string" ? cut(name) : "" };
}

const cut = (name: string) => (name.length <= MAX_NAME_LENGTH_FROM_CODE ? name : `${name.slice(0, MAX_NAME_LENGTH_FROM_CODE)}…`);

/**
 * The envelope as JSON text for the runtime. A host plugin may return a value JSON cannot hold
 * (a BigInt, a cycle): that call then fails instead of the whole run.
 */
export function envelopeJson(envelope: SandboxEnvelope): string {
  try {
    return JSON.stringify(envelope);
  } catch (error) {
    return JSON.stringify(failure("NOT_SERIALIZABLE", `The tool's value cannot be passed to the code: ${(error as Error).message}`));
  }
}
