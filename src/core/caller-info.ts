/**
 * Who made a call, as the plugin contract (`plugin-contract.ts`) carries it: a front door's caller and
 * what that caller can answer for a call under way (a person's question, an MCP server's requests).
 */

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
}
