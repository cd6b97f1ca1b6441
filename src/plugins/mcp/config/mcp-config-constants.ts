/**
 * mcp.json's names and defaults, in a module without zod: the start path (resolving entries, the
 * start gate, the fast shape check) reads them without loading the schemas.
 */

/** The top-level keys toolexec reads; any other is warned about and ignored. */
export const MCP_CONFIG_KEYS = ["$schema", "mcpServers", "servers", "inputs", "trust", "serverDefaults", "maxConcurrentStarts"] as const;

/** The transport spellings clients use, by the transport they mean. */
export const TRANSPORT_SPELLINGS = {
  stdio: "stdio",
  http: "http",
  "streamable-http": "http",
  streamableHttp: "http",
  "streamable_http": "http",
  sse: "sse",
} as const;

export type TransportSpelling = keyof typeof TRANSPORT_SPELLINGS;

/**
 * What toolexec does with a server's tools before they reach the registry (docs/tool-trust.md):
 * `trust` uses them as they are; `pin` records them on first sight and quarantines new or changed
 * ones until approved; `quarantine` holds the whole server until approved, then pins it.
 */
export const TRUST_POLICIES = ["trust", "pin", "quarantine"] as const;
export type TrustPolicy = (typeof TRUST_POLICIES)[number];
/** The policy of servers whose entry and mcp.json name none. */
export const DEFAULT_TRUST_POLICY: TrustPolicy = "trust";
/** Longest tool-name pattern in `includeTools` / `excludeTools`. */
export const MAX_TOOL_PATTERN_LENGTH = 256;


/** Retries a call or a connection gets before `SERVICE_UNAVAILABLE`. */
export const DEFAULT_MCP_RETRIES = 3;
/** First backoff delay; each retry doubles it (with jitter) up to the maximum. */
export const DEFAULT_MCP_MIN_DELAY_MS = 250;
/** Cap on one backoff delay, also for background reconnection. */
export const DEFAULT_MCP_MAX_DELAY_MS = 30_000;
/** Calls one server runs at once; more wait their turn. */
export const DEFAULT_MCP_MAX_CONCURRENCY = 16;
/** Largest result one call may return, as JSON. */
export const DEFAULT_MCP_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** Stdio servers starting at once (spawn to tools listed), across the whole executor; more wait their turn. */
export const DEFAULT_MAX_CONCURRENT_STARTS = 4;
/**
 * When a stdio server starts: `eager` with the executor; `lazy` on the first call that needs it, its
 * tool list served meanwhile from the list cached by its last run.
 */
export const SERVER_START_MODES = ["eager", "lazy"] as const;
export type ServerStartMode = (typeof SERVER_START_MODES)[number];
