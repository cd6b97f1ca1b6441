/**
 * Tool trust for one executor (docs/tool-trust.md): which tools of which server may enter the
 * registry, judged against the lock file; the decisions that change it (first use of a pinned
 * server, approve, revoke), each written to the lock file, the execution log and an event; and the
 * review of what is held. It lives as long as the `mcp` plugin object, across reloads.
 */
import { unwatchFile, watchFile } from "node:fs";
import path from "node:path";
import type { McpServerEntry } from "../config/resolve-mcp-server.js";
import type { Logger, PluginContext, ToolErrorInfo } from "../../../core/plugin-contract.js";
import { TOOL_NAME_SEPARATOR } from "../../../core/tool-names.js";
import { exposedToolName, type ServerTool } from "../tool-definitions.js";
import { checkDescriptionHygiene } from "./description-hygiene.js";
import type { UnmatchedPattern } from "./tool-filter.js";
import { fingerprintTool } from "./tool-fingerprint.js";
import type { TrustEvents } from "./trust-events.js";
import { formatTrustLock, readTrustLock, TRUST_LOCK_FILE, writeTrustLock, type LockedServer, type TrustLock } from "./trust-lock-file.js";
import { reviewServer } from "./review-server.js";
import type { TrustDecisionResult, TrustReview, TrustServerView } from "./trust-review.js";
import { approveHint, judgeTool, quarantinedError } from "./trust-verdict.js";
import { cliInvocation } from "../../../core/cli-invocation.js";

export interface TrustContext {
  root: string;
  logger: Logger;
  emit<Name extends keyof TrustEvents>(event: Name, payload: TrustEvents[Name]): void;
  writeLog?: PluginContext["writeLog"];
  /** The servers now (mcp.json's and those added at run time). */
  servers(): TrustServerView[];
}

export interface ToolTrust {
  /** (Re)bind to an instance's context and re-read the lock file. */
  start(context: TrustContext): Promise<void>;
  /** For each server, the tools that may enter the registry; the others are held (see `explain`). */
  admit(views: readonly TrustServerView[]): ServerTool[][];
  /** `TOOL_QUARANTINED` for a held tool's executor name, else `undefined`. */
  explain(name: string): ToolErrorInfo | undefined;
  review(): TrustReview;
  approve(target: unknown): Promise<TrustDecisionResult>;
  revoke(target: unknown): Promise<TrustDecisionResult>;
  /** What a server's `includeTools` / `excludeTools` patterns match none of (`fresh`: newly so). */
  noteUnmatched(server: string, current: UnmatchedPattern[], fresh: UnmatchedPattern[]): void;
  /** Called after a decision changed which tools are usable; returns the unsubscribe function. */
  onChanged(listener: () => void): () => void;
  /** Wait for the lock file writes under way. */
  flush(): Promise<void>;
  /** Stop watching the lock file (after the last instance closed). */
  close(): void;
}

/** How often the lock file is looked at for decisions another process made (`toolexec tools approve` beside a running `serve`). */
const LOCK_POLL_INTERVAL_MS = 500;

type Mutation = (lock: TrustLock) => void;

const failure = (code: Extract<TrustDecisionResult, { ok: false }>["error"]["code"], message: string, details?: Record<string, unknown>): TrustDecisionResult => ({
  ok: false,
  error: { code, message, ...(details === undefined ? {} : { details }) },
});

/** @example const trust = createToolTrust(); await trust.start(context); const [usable] = trust.admit([view]); */
export function createToolTrust(): ToolTrust {
  let context: TrustContext | undefined;
  let lock: TrustLock = new Map();
  /** Why the lock file cannot be used: every pinned or quarantined server is held until it is fixed. */
  let broken: string | undefined;
  const held = new Map<string, Map<string, ToolErrorInfo>>();
  const unmatched = new Map<string, UnmatchedPattern[]>();
  /** Quarantines and hygiene warnings already announced, by server, tool, definition (and reason). */
  const announced = new Set<string>();
  const listeners = new Set<() => void>();
  const pending: Mutation[] = [];
  let writes: Promise<unknown> = Promise.resolve();

  const lockFile = () => path.join(context!.root, TRUST_LOCK_FILE);
  let watched: string | undefined;
  /** Another process's decision: take the file as it is now when it differs from what is in force. */
  const onLockFileChanged = async () => {
    if (!context || pending.length > 0) return;
    const read = await readTrustLock(context.root);
    if (!read.ok || pending.length > 0 || formatTrustLock(read.lock) === formatTrustLock(lock)) return;
    lock = read.lock;
    broken = undefined;
    notify();
  };
  /** Only projects with a pinned or quarantined server look at the file. */
  const watchLockFile = () => {
    if (watched !== undefined) return;
    watched = lockFile();
    // Polling, not fs.watch: the file and its folder may not exist yet, and rename replaces the inode.
    watchFile(watched, { interval: LOCK_POLL_INTERVAL_MS, persistent: false }, onLockFileChanged);
  };
  const stopWatching = () => {
    if (watched !== undefined) unwatchFile(watched, onLockFileChanged);
    watched = undefined;
  };
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };

  /** Apply `mutate` now, and to the file as it is on disk (another process may have written it) in the write queue. */
  const commit = (mutate: Mutation): Promise<void> => {
    mutate(lock);
    pending.push(mutate);
    const { root, logger } = context!;
    const write = writes.then(async () => {
      const read = await readTrustLock(root);
      try {
        if (!read.ok) throw new Error(read.message);
        mutate(read.lock);
        await writeTrustLock(root, read.lock);
      } catch (error) {
        // What is in force never claims more than the file says: the decision is undone in memory too.
        pending.splice(pending.indexOf(mutate), 1);
        const again = await readTrustLock(root);
        lock = again.ok ? again.lock : new Map();
        broken = again.ok ? undefined : again.message;
        for (const later of pending) later(lock);
        notify();
        throw error;
      }
      pending.splice(pending.indexOf(mutate), 1);
      lock = read.lock;
      for (const later of pending) later(lock);
    });
    writes = write.catch((error: Error) => logger.error(`Could not write ${lockFile()}: ${error.message}`));
    return write;
  };

  const record = (action: TrustEvents["trust:decision"]["action"], entry: McpServerEntry, tools: string[]) => {
    const payload = { action, server: entry.name, tools, policy: entry.trust };
    context!.writeLog?.({ event: "trust:decision", ...payload });
    context!.emit("trust:decision", payload);
  };

  const announceHygiene = (tool: ServerTool, fingerprint: string) => {
    const key = `hygiene\0${tool.server}\0${tool.tool}\0${fingerprint}`;
    if (announced.has(key)) return;
    announced.add(key);
    for (const warning of checkDescriptionHygiene(tool.definition)) {
      context!.logger.warn(`MCP server "${tool.server}", tool "${tool.tool}": ${warning.message}`);
      context!.emit("trust:warning", { server: tool.server, tool: tool.tool, ...warning });
    }
  };

  /** `server`, an executor tool name, or `server__tool`: which server and (maybe) which of its tools. */
  const resolveTarget = (target: unknown): { view: TrustServerView; tool?: string } | TrustDecisionResult => {
    if (typeof target !== "string" || target === "") return failure("INVALID_INPUT", `Expected a server name or a tool name (server__tool), got ${JSON.stringify(target) ?? String(target)}`);
    const views = context!.servers();
    const server = views.find((view) => view.entry.name === target);
    if (server) return { view: server };
    for (const view of views) {
      const tool = view.tools.find((candidate) => candidate.definition.name === target);
      if (tool) return { view, tool: tool.tool };
    }
    // Server names never hold the separator, so a server's tool is `server__` plus the rest, whatever the rest holds.
    const at = target.indexOf(TOOL_NAME_SEPARATOR);
    const owner = at > 0 ? views.find((view) => view.entry.name === target.slice(0, at)) : undefined;
    if (owner) return { view: owner, tool: target.slice(at + TOOL_NAME_SEPARATOR.length) };
    return failure("TOOL_NOT_FOUND", `No MCP server or tool named "${target}"`, { servers: views.map((view) => view.entry.name) });
  };

  const decide = async (action: "approve" | "revoke", target: unknown): Promise<TrustDecisionResult> => {
    if (!context) return failure("EXECUTOR_CLOSED", "The MCP plugin is not running");
    const resolved = resolveTarget(target);
    if ("ok" in resolved) return resolved;
    const { view, tool } = resolved;
    const { entry } = view;
    if (entry.trust === "trust") {
      return failure("INVALID_INPUT", `Server "${entry.name}" has the trust policy "trust": its tools are used as they are, so there is nothing to ${action}; set "trust": "pin" or "quarantine" on it in mcp.json`);
    }
    if (broken !== undefined) return failure("CONFIG_INVALID", broken);
    let tools: ServerTool[];
    let mutate: Mutation;
    if (tool === undefined) {
      if (action === "approve" && !view.connected) return failure("SERVICE_UNAVAILABLE", `Server "${entry.name}" is not connected: its tools cannot be approved unseen; run \`${cliInvocation()} servers\` to see why`);
      tools = [...view.tools];
      mutate = (into) => {
        const server: LockedServer = into.get(entry.name) ?? { approved: true, tools: new Map() };
        server.approved = action === "approve";
        if (action === "approve") for (const each of tools) server.tools.set(each.tool, fingerprintTool(each));
        into.set(entry.name, server);
      };
    } else {
      const current = view.tools.find((candidate) => candidate.tool === tool);
      if (action === "approve") {
        if (current === undefined) return failure("TOOL_NOT_FOUND", `Server "${entry.name}" lists no tool "${tool}" now`, { tools: view.tools.map((candidate) => candidate.tool) });
        if (lock.get(entry.name)?.approved === false) return failure("INVALID_INPUT", `Approval of server "${entry.name}" was revoked; approve the server first: ${approveHint(entry.name, view.source)}`);
      }
      tools = current === undefined ? [] : [current];
      mutate = (into) => {
        const server: LockedServer = into.get(entry.name) ?? { approved: true, tools: new Map() };
        if (action === "approve") server.tools.set(tool, fingerprintTool(current!));
        else server.tools.delete(tool);
        into.set(entry.name, server);
      };
    }
    try {
      await commit(mutate);
    } catch (error) {
      return failure("CONFIG_INVALID", (error as Error).message);
    }
    const names = tool === undefined || tools.length > 0 ? tools.map((each) => each.definition.name) : [exposedToolName(entry.name, tool, entry.prefix)];
    record(action, entry, names);
    notify();
    return { ok: true, action, server: entry.name, tools: names };
  };

  const admitServer = (view: TrustServerView): ServerTool[] => {
    const { entry, tools } = view;
    const byName = new Map<string, ToolErrorInfo>();
    held.set(entry.name, byName);
    const fingerprints = tools.map((tool) => fingerprintTool(tool));
    tools.forEach((tool, index) => announceHygiene(tool, fingerprints[index]!.fingerprint));
    if (entry.trust === "trust") return [...tools];
    watchLockFile();
    if (entry.trust === "pin" && broken === undefined && view.connected && !lock.has(entry.name)) {
      // Trust on first use: what a pinned server lists the first time it is seen is what is approved.
      void commit((into) => {
        if (!into.has(entry.name)) into.set(entry.name, { approved: true, tools: new Map(tools.map((tool, index) => [tool.tool, fingerprints[index]!])) });
      }).catch(() => undefined);
      record("first-use", entry, tools.map((tool) => tool.definition.name));
    }
    const locked = broken === undefined ? lock.get(entry.name) : undefined;
    const usable: ServerTool[] = [];
    const fresh: TrustEvents["trust:quarantined"]["tools"] = [];
    tools.forEach((tool, index) => {
      const verdict = judgeTool(entry.trust, locked, tool, fingerprints[index]);
      if (verdict.usable) return void usable.push(tool);
      byName.set(tool.definition.name, quarantinedError(tool, verdict, view.source));
      const key = `held\0${entry.name}\0${tool.tool}\0${fingerprints[index]!.fingerprint}\0${verdict.reason}`;
      if (announced.has(key)) return;
      announced.add(key);
      const { usable: _usable, ...why } = verdict;
      fresh.push({ name: tool.definition.name, ...why });
    });
    if (fresh.length > 0) {
      context!.logger.warn(`MCP server "${entry.name}": ${fresh.length} tool(s) quarantined (${fresh.map((tool) => `${tool.name}: ${tool.reason}`).join(", ")}); run \`${cliInvocation()} tools review\``);
      context!.emit("trust:quarantined", { server: entry.name, tools: fresh });
    }
    return usable;
  };

  return {
    async start(next) {
      context = next;
      if (watched !== undefined && watched !== lockFile()) stopWatching();
      const read = await readTrustLock(next.root);
      broken = read.ok ? undefined : read.message;
      if (!read.ok) next.logger.error(`${read.message}; the tools of pinned and quarantined servers are held until it is fixed`);
      lock = read.ok ? read.lock : new Map();
      for (const mutate of pending) mutate(lock);
    },
    admit(views) {
      // Servers gone since the last admission (a run-time server removed) hold nothing any more.
      held.clear();
      return views.map(admitServer);
    },
    explain(name) {
      for (const byName of held.values()) {
        const error = byName.get(name);
        if (error) return error;
      }
      return undefined;
    },
    review() {
      const servers = context!.servers().map((view) => reviewServer(view, broken === undefined ? lock.get(view.entry.name) : undefined, unmatched.get(view.entry.name) ?? []));
      return { lockFile: lockFile(), servers, quarantined: servers.reduce((sum, server) => sum + server.tools.filter((tool) => tool.status === "quarantined").length, 0) };
    },
    approve: (target) => decide("approve", target),
    revoke: (target) => decide("revoke", target),
    noteUnmatched(server, current, fresh) {
      unmatched.set(server, current);
      for (const { key, pattern } of fresh) {
        const message = `"${key}" pattern "${pattern}" matches none of server "${server}"'s tools; check its spelling`;
        context?.logger.warn(`MCP server "${server}": ${message}`);
        context?.emit("trust:warning", { server, kind: "unmatched-pattern", message });
      }
    },
    onChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    flush: () => writes.then(() => undefined),
    close: stopWatching,
  };
}
