/**
 * Which protocol era an upstream server speaks. A 2025 client learns that a server is 2026-only
 * from its refusal of `initialize` (-32022, naming 2026-07-28): the session then opens again with
 * the SDK v2 client (modern-client.ts, loaded only then).
 */
import type { SessionFailure } from "./session-failure.js";

/** The revision a 2026-only server speaks. */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";
/** JSON-RPC's "unsupported protocol version", with the versions the server does support. */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

export type ProtocolEra = "legacy" | "modern";

/**
 * Whether a failed `initialize` was a server refusing the 2025 era (-32022, or its message when
 * the error was passed on as text); the 2026 attempt then tells whether it speaks 2026-07-28.
 */
export function refusedForModernEra(failure: SessionFailure): boolean {
  return failure.message.includes(String(UNSUPPORTED_PROTOCOL_VERSION)) || /unsupported protocol version/i.test(failure.message);
}
