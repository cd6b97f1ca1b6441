/** The registry's copy of what a caller hands a write, taken when the call is made. */
import { describeValue } from "../json/describe-value.js";
import { invalidInput } from "./invalid-input.js";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}

/** A JSON copy of `value` (nothing the caller changes later, no getters, no prototypes). */
export function snapshotObject(value: unknown, what: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw invalidInput(`Expected ${what} as a JSON object, got ${describeValue(value)}`);
  try {
    return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  } catch (error) {
    throw invalidInput(`Expected ${what} of plain JSON data: ${(error as Error).message}`);
  }
}
