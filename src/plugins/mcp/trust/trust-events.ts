/** The executor events of tool trust (docs/tool-trust.md), added to `ExecutorEvents`. */
import type { TrustPolicy } from "../config/mcp-server-schema.js";
import type { HygieneKind } from "./description-hygiene.js";
import type { ToolChange } from "./describe-tool-change.js";

/** Why a tool is held out of the registry. */
export type QuarantineReason = "server-pending" | "server-revoked" | "new-tool" | "changed";

/** The `trust:*` events by name with their payloads (see docs/tool-trust.md). */
export interface TrustEvents {
  /** Tools of a server were held out of the registry (each tool once per definition and reason). */
  "trust:quarantined": { server: string; tools: Array<{ name: string; reason: QuarantineReason } & Partial<ToolChange>> };
  /**
   * Something a person should look at, never a block: a description that looks written for the model
   * (`invisible-characters`, `addressed-to-model`, `long-description`), or an `includeTools` /
   * `excludeTools` pattern that matches none of the server's tools (`unmatched-pattern`).
   */
  "trust:warning": { server: string; tool?: string; kind: HygieneKind | "unmatched-pattern"; message: string };
  /** A decision recorded in the lock file: `first-use` (a pinned server seen the first time), `approve`, `revoke`. */
  "trust:decision": { action: "first-use" | "approve" | "revoke"; server: string; tools: string[]; policy: TrustPolicy };
}

declare module "../../../core/plugin-events.js" {
  interface PluginEvents extends TrustEvents {}
}
