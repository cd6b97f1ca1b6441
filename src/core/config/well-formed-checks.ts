/**
 * The building blocks of the fast shape checks (tools.json, the built-in sections, the executor's
 * options): each answers true only where its zod counterpart certainly accepts, false for "ask zod".
 * Each is therefore no looser than zod (safe integers where zod says `.int()`, no `__proto__` key
 * where zod skips one).
 */

export type Check = (value: unknown) => boolean;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && !Object.hasOwn(value, "__proto__");
}

export const isString: Check = (value) => typeof value === "string";
export const isNonEmptyString: Check = (value) => typeof value === "string" && value.length > 0;
export const isBoolean: Check = (value) => typeof value === "boolean";
export const isFunction: Check = (value) => typeof value === "function";
export const integerFrom = (minimum: number, maximum = Number.MAX_SAFE_INTEGER): Check => (value) => Number.isSafeInteger(value) && (value as number) >= minimum && (value as number) <= maximum;
export const numberBetween = (minimum: number, maximum: number): Check => (value) => typeof value === "number" && Number.isFinite(value) && value >= minimum && value <= maximum;
export const oneOf = (values: readonly unknown[]): Check => (value) => values.includes(value);
export const either = (...checks: Check[]): Check => (value) => checks.some((check) => check(value));
/** An optional option: absent or `undefined` (zod's `.optional()` takes both), else `check`. */
export const optional = (check: Check): Check => (value) => value === undefined || check(value);

/** An object with the `required` keys, whose keys each have a check, and whose values pass them. */
export const objectOf = (checks: ReadonlyMap<string, Check>, required: readonly string[] = []): Check => (value) => {
  if (!isPlainObject(value) || !required.every((key) => Object.hasOwn(value, key))) return false;
  // `for…in` allocates no key list; a key it adds (an enumerable Object.prototype property) can only refuse.
  for (const key in value) {
    const check = checks.get(key);
    if (check === undefined || !check(value[key])) return false;
  }
  return true;
};

/** Every index, holes included (`every` skips holes; zod would refuse one). */
export const everyItem = (items: unknown[], check: Check): boolean => {
  for (let index = 0; index < items.length; index++) if (!check(items[index])) return false;
  return true;
};

export const arrayOf = (check: Check): Check => (value) => Array.isArray(value) && everyItem(value, check);
export const isStringRecord: Check = (value) => isPlainObject(value) && Object.values(value).every(isString);
