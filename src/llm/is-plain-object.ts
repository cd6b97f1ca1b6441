/** Whether a JSON value is an object (not an array, not null): a schema node or a keyword map. */
export const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);
