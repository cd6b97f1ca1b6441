/**
 * What a JSON Schema says that TypeScript types cannot: ranges, lengths, patterns, formats, defaults,
 * examples. They go into doc comments so that the model still sees them.
 */

/** A default or example longer than this is cut: it illustrates, the schema still decides. */
const MAX_VALUE_TEXT_LENGTH = 80;

type Schema = Record<string, unknown>;

/**
 * The doc text for a property: its description, then its hints as one sentence.
 *
 * @example
 * schemaDocumentation({ type: "integer", minimum: 0, maximum: 12, description: "Decimal places (default 6)." });
 * // "Decimal places (default 6). Integer, minimum 0, maximum 12."
 */
export function schemaDocumentation(schema: unknown): string {
  if (!isSchemaObject(schema)) return "";
  const description = typeof schema.description === "string" ? schema.description.trim() : "";
  const hints = schemaHints(schema);
  if (hints.length === 0) return description;
  const sentence = `${hints.join(", ")}.`;
  const capitalized = sentence[0]!.toUpperCase() + sentence.slice(1);
  if (description === "") return capitalized;
  return /[.!?:)]$/.test(description) ? `${description} ${capitalized}` : `${description}. ${capitalized}`;
}

/**
 * The constraint hints of one schema, in a fixed order. The hints of array items are included one
 * level deep: "each item: each item: ..." would help nobody.
 *
 * @example
 * schemaHints({ type: "integer", minimum: 1, default: 10 }); // ["integer", "minimum 1", "default 10"]
 */
export function schemaHints(schema: Schema, withItems = true): string[] {
  const hints: string[] = [];
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes("integer")) hints.push("integer");
  if (typeof schema.format === "string") hints.push(`format ${schema.format}`);
  pushBounds(hints, schema);
  if (typeof schema.multipleOf === "number") hints.push(`multiple of ${schema.multipleOf}`);
  if (typeof schema.minLength === "number" && schema.minLength > 0) hints.push(`minimum length ${schema.minLength}`);
  if (typeof schema.maxLength === "number") hints.push(`maximum length ${schema.maxLength}`);
  if (typeof schema.pattern === "string") hints.push(`pattern \`${schema.pattern}\``);
  if (typeof schema.minItems === "number" && schema.minItems > 0) hints.push(`at least ${schema.minItems} ${plural(schema.minItems, "item")}`);
  if (typeof schema.maxItems === "number") hints.push(`at most ${schema.maxItems} ${plural(schema.maxItems, "item")}`);
  if (schema.uniqueItems === true) hints.push("unique items");
  if (withItems && isSchemaObject(schema.items)) {
    const itemHints = schemaHints(schema.items, false);
    if (itemHints.length > 0) hints.push(`each item: ${itemHints.join(", ")}`);
  }
  if ("default" in schema) hints.push(`default ${valueText(schema.default)}`);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) hints.push(`example ${valueText(schema.examples[0])}`);
  if (schema.deprecated === true) hints.push("deprecated");
  return hints;
}

function pushBounds(hints: string[], schema: Schema): void {
  // Draft 4 spells exclusive bounds as booleans beside minimum/maximum; later drafts as numbers.
  if (typeof schema.minimum === "number") hints.push(`${schema.exclusiveMinimum === true ? "greater than" : "minimum"} ${schema.minimum}`);
  if (typeof schema.exclusiveMinimum === "number") hints.push(`greater than ${schema.exclusiveMinimum}`);
  if (typeof schema.maximum === "number") hints.push(`${schema.exclusiveMaximum === true ? "less than" : "maximum"} ${schema.maximum}`);
  if (typeof schema.exclusiveMaximum === "number") hints.push(`less than ${schema.exclusiveMaximum}`);
}

function valueText(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MAX_VALUE_TEXT_LENGTH ? `${text.slice(0, MAX_VALUE_TEXT_LENGTH - 1)}…` : text;
}

function plural(count: number, word: string): string {
  return count === 1 ? word : `${word}s`;
}

/**
 * A schema object (not a boolean schema, not an array).
 *
 * @example
 * isSchemaObject({ type: "string" }); // true
 * isSchemaObject(true); // false
 */
export function isSchemaObject(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
