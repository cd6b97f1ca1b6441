/**
 * Argument examples for the schema corpus: values built from a schema (only what is required, and
 * everything), kept only when the original schema accepts them, plus a broken copy of each that it
 * must refuse; and the form a strict OpenAI model would send (every optional property present, null).
 */
const isPlainObject = (value: unknown): value is Record<string, any> => value !== null && typeof value === "object" && !Array.isArray(value);

const STRINGS: Record<string, string> = {
  "date-time": "2026-01-02T03:04:05Z",
  date: "2026-01-02",
  time: "03:04:05Z",
  email: "someone@example.test",
  uri: "https://example.test/a",
  url: "https://example.test/a",
  uuid: "123e4567-e89b-12d3-a456-426614174000",
  hostname: "example.test",
  ipv4: "127.0.0.1",
};

export function sampleValue(schema: unknown, full: boolean, depth = 0): unknown {
  if (!isPlainObject(schema) || depth > 8) return {};
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.find((value) => value !== null) ?? null;
  if (schema.default !== undefined) return schema.default;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives) && alternatives.length > 0) return sampleValue({ ...schema, anyOf: undefined, oneOf: undefined, ...alternatives[0] }, full, depth + 1);
  if (Array.isArray(schema.allOf)) return sampleValue(Object.assign({}, ...schema.allOf, { ...schema, allOf: undefined }), full, depth + 1);
  const type = (Array.isArray(schema.type) ? schema.type.find((item: string) => item !== "null") : schema.type) ?? (isPlainObject(schema.properties) ? "object" : "string");
  switch (type) {
    case "string":
      return STRINGS[schema.format] ?? "x".repeat(Math.max(schema.minLength ?? 1, 1));
    case "number":
    case "integer":
      return schema.minimum ?? (typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum + 1 : 1);
    case "boolean":
      return true;
    case "null":
      return null;
    case "array":
      return Array.from({ length: Math.max(schema.minItems ?? 0, full ? 1 : 0) }, () => sampleValue(schema.items, full, depth + 1));
    default: {
      const required = new Set<string>(schema.required ?? []);
      const entries = Object.entries(schema.properties ?? {}).filter(([name]) => full || required.has(name));
      return Object.fromEntries(entries.map(([name, child]) => [name, sampleValue(child, full, depth + 1)]));
    }
  }
}

/** A copy that breaks the schema: a required property of the wrong kind, or a non-object. */
export function brokenValue(value: unknown, schema: Record<string, any>): unknown {
  const required: string[] = schema.required ?? [];
  if (isPlainObject(value) && required.length > 0) return { ...value, [required[0]!]: typeof value[required[0]!] === "number" ? "not a number" : 12345 };
  return "not an object";
}

/** What a strict-mode model sends for `value`: every property the strict schema lists, null when absent. */
export function strictForm(value: unknown, strict: unknown): unknown {
  if (!isPlainObject(strict)) return value;
  if (Array.isArray(value)) return value.map((item) => strictForm(item, strict.items));
  if (!isPlainObject(value)) return value;
  const shape = isPlainObject(strict.properties) ? strict : (strict.anyOf ?? []).find((alternative: any) => isPlainObject(alternative?.properties));
  if (!shape) return value;
  return Object.fromEntries(Object.entries(shape.properties).map(([name, child]) => [name, name in value ? strictForm(value[name], child) : null]));
}
