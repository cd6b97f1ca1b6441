/**
 * The timeout bounds every config key and option shares, in a module of their own: the main entry
 * exports `MAX_TIMEOUT_MS` without loading the config schemas (and zod) behind them.
 */

/** A call's budget when neither tools.json nor the executor names one. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** setTimeout's ceiling: a larger delay would fire at once. */
export const MAX_TIMEOUT_MS = 2_147_483_647;
