/**
 * Registry names may hold `.` and be 128 characters long; OpenAI and Anthropic accept
 * `^[a-zA-Z0-9_-]{1,64}$`, Gemini `^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`. A name a provider accepts is
 * sent as it is. Any other is rewritten — refused characters to `_`, cut to fit, then `_` and eight
 * hex digits of the name's SHA-256 — so the same name always gets the same provider name (stable
 * across runs and tool lists), and the map turns the provider's name back into ours.
 */
import { createHash } from "node:crypto";

/** Maps registry tool names to the names one provider sees, and back. */
export interface ToolNameMap {
  /** The provider's name for a registry tool (`undefined` for a tool not in the list). */
  toProvider(name: string): string | undefined;
  /** The registry name behind a name the provider used (`undefined` for a name it made up). */
  fromProvider(providerName: string): string | undefined;
}

/**
 * The names each provider accepts for a function; `portable` is what all of them accept, for the AI
 * SDK and LangChain, which hand names to whichever provider is behind them.
 */
export const PROVIDER_NAME_PATTERNS = {
  openai: /^[a-zA-Z0-9_-]{1,64}$/,
  anthropic: /^[a-zA-Z0-9_-]{1,64}$/,
  gemini: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/,
  portable: /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/,
} as const;

export type ProviderName = keyof typeof PROVIDER_NAME_PATTERNS;

const MAX_LENGTH = 64;

function rewrite(name: string, hashLength: number): string {
  const hash = createHash("sha256").update(name).digest("hex").slice(0, hashLength);
  const base = name.replace(/[^a-zA-Z0-9_-]/g, "_").replace(/^(?=[^a-zA-Z_])/, "_");
  return `${base.slice(0, MAX_LENGTH - hashLength - 1)}_${hash}`;
}

/**
 * @example
 * const names = createToolNameMap(["github.com__search", "weather"], "openai");
 * names.toProvider("weather"); // "weather"
 * names.fromProvider(names.toProvider("github.com__search")!); // "github.com__search"
 */
export function createToolNameMap(names: readonly string[], provider: ProviderName): ToolNameMap {
  const pattern = PROVIDER_NAME_PATTERNS[provider];
  const forward = new Map<string, string>();
  const backward = new Map<string, string>();
  // Accepted names first: they keep their names, and a rewritten name must not take one of theirs.
  const accepted = names.filter((name) => pattern.test(name));
  for (const name of accepted) {
    forward.set(name, name);
    backward.set(name, name);
  }
  for (const name of names) {
    if (forward.has(name)) continue;
    let hashLength = 8;
    let providerName = rewrite(name, hashLength);
    // Only a deliberately chosen registry name can collide with a hash; a longer hash settles it.
    while (backward.has(providerName) && hashLength < 32) providerName = rewrite(name, (hashLength += 4));
    forward.set(name, providerName);
    backward.set(providerName, name);
  }
  return { toProvider: (name) => forward.get(name), fromProvider: (providerName) => backward.get(providerName) };
}
