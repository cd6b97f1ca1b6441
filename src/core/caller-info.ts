/**
 * Who made a call, as the plugin contract (`plugin-contract.ts`) carries it: a front door's caller and
 * what that caller can answer for a call under way (a person's question, an MCP server's requests).
 */

import type { ToolDefinition, ToolErrorInfo } from "./plugin-contract.js";

/** The answer of a person asked through a caller's `ask` (MCP elicitation's actions). */
export type PersonAnswer = { action: "accept"; answer: string } | { action: "decline" } | { action: "cancel" };

/**
 * Who made a call, when a front door knows: an MCP client served by `toolexec/serve`, say. Logged
 * with the call (name, version, session), and inherited by its sub-calls. `ask`, when the caller can
 * put a question to its person (MCP elicitation), is how `request_human_input` reaches them.
 */
export interface CallerInfo {
  name?: string;
  version?: string;
  sessionId?: string;
  ask?(request: { question: string; options?: string[]; signal: AbortSignal }): Promise<PersonAnswer>;
  /**
   * When the caller can answer an MCP server's `elicitation/create` (a form or a URL for its person):
   * a server the call reached asks it through this, with MCP's params as the server wrote them, and
   * gets MCP's result (`{ action, content? }`). Without it, the host's `onElicitation` answers.
   */
  elicit?(params: Record<string, unknown>, options: { signal: AbortSignal }): Promise<Record<string, unknown>>;
  /**
   * When the caller can answer an MCP server's `sampling/createMessage` (its model): MCP's params in,
   * MCP's result (`{ role, content, model, stopReason? }`) out. Without it, the host's `onSampling` answers.
   */
  createMessage?(params: Record<string, unknown>, options: { signal: AbortSignal }): Promise<Record<string, unknown>>;
  /** A log message (MCP's `notifications/message` params) that a server the call reached sent while it ran. */
  log?(message: { level: string; logger?: string; data: unknown }): void;
  /**
   * What this caller may reach, when a front door knows who it is (a served principal and its
   * profile): asked before every call it makes, sub-calls included (a sub-call keeps its parent's
   * access whatever caller it names), so no door — direct, `call_tool`, code mode, a saved tool —
   * reaches a tool the caller cannot. Logged with the call (principal, profile, decision).
   */
  access?: CallerAccess;
}

/** A caller's view of the registry and what it may call (see `CallerInfo.access`). */
export interface CallerAccess {
  /** Who is calling: `kind` is how it proved it (`key`, `jwt`, `token`, `local`). */
  principal: { id: string; kind: string };
  /** The named view the caller is served through, if any. */
  profile?: string;
  /** The registry's name of the tool the caller calls `name` (a profile may show tools renamed). */
  registryName(name: string): string;
  /**
   * Whether the call may start: `release` is called when it ends; a refusal is the call's error
   * (`TOOL_NOT_FOUND` for a tool the caller cannot see, `FORBIDDEN`, `RATE_LIMITED`). `topLevel` is
   * false for sub-calls (limits count the caller's own calls). A promise when the answer needs a
   * shared store (limits counted across replicas).
   */
  admit(call: { definition: ToolDefinition; plugin: string; topLevel: boolean }): AccessVerdict | Promise<AccessVerdict>;
  /**
   * The tools the caller sees, as it sees them (hidden ones left out, renames and descriptions
   * applied). `searchFirst: false`: every tool it may reach, also when its view lists only the
   * finders and pinned tools (what code mode and search reach through).
   */
  view<Tool extends { name: string; description: string; annotations?: ToolDefinition["annotations"] }>(tools: readonly Tool[], options?: { searchFirst?: boolean }): Tool[];
  /**
   * Callers whose accesses have the same key see the same view: a plugin may keep what it derives
   * from `view` (code mode's declarations) by it, until the tools change. Absent: per access.
   */
  viewKey?: string;
}

/** Whether a call may start (see `CallerAccess.admit`). */
export type AccessVerdict = { ok: true; release(): void } | { ok: false; error: ToolErrorInfo };

/** What a call's log record says of its caller (`ExecutionRecord`). */
export interface CallerRecord {
  /** The caller, when a front door named one: `{ name?, version?, session? }`, the session id as an opaque digest. */
  caller?: { name?: string; version?: string; session?: string };
  /** With a caller's access (a served principal): who, the profile, whether it was let through, and a refusal's code. */
  principal?: { id: string; kind: string };
  profile?: string;
  decision?: "allowed" | "refused";
  reason?: string;
}
