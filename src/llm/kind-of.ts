/** What a wrong option value is, for messages: "null", "an array", or its `typeof`. */
export const kindOf = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "an array" : typeof value);
