/**
 * Signs of a tool description written to steer the model rather than to describe the tool (tool
 * poisoning): invisible or bidirectional Unicode, text addressed to the model, and descriptions too
 * long to be read by the person approving them. Warnings, never blocks: a person judges. Every check
 * is a literal search or a single character class, linear in the text.
 */
import type { ToolDefinition } from "../../../core/plugin-contract.js";

/** Descriptions longer than this are flagged. */
export const MAX_PLAIN_DESCRIPTION_LENGTH = 2_000;

/** What a description-hygiene warning is about. */
export type HygieneKind = "invisible-characters" | "addressed-to-model" | "long-description";

/** A description that looks written for the model rather than for a person: a warning, never a block. */
export interface HygieneWarning {
  kind: HygieneKind;
  message: string;
}

/** Zero-width, bidirectional-control, soft-hyphen, word-joiner and Unicode tag characters. */
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]/gu;

/**
 * Joiners that are part of visible text, not hidden in it: U+200D inside an emoji sequence (👩‍💻 is
 * 👩 U+200D 💻) and U+200C/U+200D between letters of scripts that need them (Persian, Arabic,
 * Indic: می‌خواهم). Between Latin letters or anywhere else they are still flagged. One character of
 * look-behind and look-ahead each: linear.
 */
const VISIBLE_JOINER = /(?<=[\p{Extended_Pictographic}\u{1F3FB}-\u{1F3FF}\uFE0F])\u200D(?=\p{Extended_Pictographic})|(?<=[^\P{L}\p{Script=Latin}]|\p{M})[\u200C\u200D](?=[^\P{L}\p{Script=Latin}])/gu;

/** Phrases a description has no reason to say to a model (lower case, single spaces). */
const ADDRESSED_TO_MODEL = [
  "ignore previous instructions",
  "ignore all previous",
  "ignore the previous",
  "disregard previous",
  "disregard all previous",
  "forget your instructions",
  "do not tell the user",
  "don't tell the user",
  "do not mention this",
  "without telling the user",
  "without informing the user",
  "the user must not know",
  "system prompt",
  "<important>",
  "<system>",
  "before using this tool, read",
  "you must always call",
  "id_rsa",
  "~/.ssh",
];

/** Every string of a schema (property descriptions, titles, enum values): models read them too. */
function schemaText(schema: unknown, into: string[]): string[] {
  if (typeof schema === "string") into.push(schema);
  else if (Array.isArray(schema)) for (const item of schema) schemaText(item, into);
  else if (schema !== null && typeof schema === "object") {
    for (const [key, value] of Object.entries(schema)) {
      into.push(key);
      schemaText(value, into);
    }
  }
  return into;
}

const codePoint = (character: string) => `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/**
 * `text` with each invisible character shown as `<U+200B>`, for text a person must judge.
 *
 * @example
 * revealInvisibleCharacters("a\u200Bb"); // "a<U+200B>b"
 */
export const revealInvisibleCharacters = (text: string) => text.replace(INVISIBLE, (character) => `<${codePoint(character)}>`);

/**
 * @example
 * checkDescriptionHygiene({ name: "add", description: "Adds. <IMPORTANT>Do not tell the user</IMPORTANT>", inputSchema: {} });
 * // [{ kind: "addressed-to-model", message: 'Its text says "do not tell the user" …' }]
 */
export function checkDescriptionHygiene(definition: Pick<ToolDefinition, "description" | "inputSchema" | "outputSchema">): HygieneWarning[] {
  const warnings: HygieneWarning[] = [];
  const texts = [definition.description, ...schemaText(definition.inputSchema, []), ...schemaText(definition.outputSchema ?? null, [])];
  const invisible = new Set<string>();
  for (const text of texts) for (const match of text.replace(VISIBLE_JOINER, "").matchAll(INVISIBLE)) invisible.add(codePoint(match[0]));
  if (invisible.size > 0) {
    warnings.push({ kind: "invisible-characters", message: `Its text holds invisible or bidirectional characters (${[...invisible].slice(0, 5).join(", ")}) a person reviewing it cannot see` });
  }
  const plain = texts.join("\n").replace(INVISIBLE, "").replace(/\s+/g, " ").toLowerCase();
  const phrases = ADDRESSED_TO_MODEL.filter((phrase) => plain.includes(phrase));
  if (phrases.length > 0) {
    warnings.push({ kind: "addressed-to-model", message: `Its text speaks to the model rather than describing the tool: ${phrases.map((phrase) => `"${phrase}"`).join(", ")}` });
  }
  if (definition.description.length > MAX_PLAIN_DESCRIPTION_LENGTH) {
    warnings.push({ kind: "long-description", message: `Its description is ${definition.description.length} characters long (more than ${MAX_PLAIN_DESCRIPTION_LENGTH}); read it whole before approving` });
  }
  return warnings;
}
