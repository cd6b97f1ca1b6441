/**
 * The checks the serve functions make of their options before anything listens: secrets are
 * non-empty strings (an empty one would be met by a request that sends none), counts and durations
 * whole numbers in range. A bad option is `INVALID_OPTIONS` naming it.
 */
import { ToolexecError } from "../index.js";

/**
 * Throws unless `value`, when given, is a whole number from `least`.
 *
 * @example
 * expectWholeNumber("closeTimeoutMs", options.closeTimeoutMs, 0, " of ms");
 */
export function expectWholeNumber(name: string, value: unknown, least: 0 | 1, unit = ""): void {
  if (value === undefined || (Number.isInteger(value) && (value as number) >= least)) return;
  throw new ToolexecError("INVALID_OPTIONS", `Expected ${name} to be a whole number${unit} ${least === 0 ? "from 0" : "above 0"}, got ${String(value)}`);
}

/**
 * Throws unless `value`, when given, is a non-empty string.
 *
 * @example
 * expectSecret("token", options.token);
 */
export function expectSecret(name: string, value: unknown): void {
  if (value === undefined || (typeof value === "string" && value !== "")) return;
  throw new ToolexecError("INVALID_OPTIONS", `Expected ${name} to be a non-empty string, got ${JSON.stringify(value)}`);
}
