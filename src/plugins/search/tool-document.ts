/**
 * One tool as the index sees it: the terms of each of its fields. Every part of a definition says
 * something about what the tool is for — its own name, its server's name, the first sentence of
 * its description (what it does), the rest (when to use it), its parameters' names, descriptions
 * and allowed values, and its annotations.
 */
import type { JsonSchema, ToolDefinition } from "../../core/plugin-contract.js";
import { TOOL_NAME_SEPARATOR } from "../../core/tool-names.js";
import { builtInIntent, builtInKind, type BuiltInKind } from "./built-in-intents.js";
import { isKnownTerm } from "./related-words.js";
import { stemWord } from "./stem-word.js";
import { toolAction, type Action } from "./request-action.js";
import { isStopWord, splitWords, tokenizeText } from "./tokenize-text.js";

/** The fields a tool is indexed by, most telling first. */
export const FIELDS = ["name", "server", "summary", "description", "parameters", "intent"] as const;
export type Field = (typeof FIELDS)[number];

/** A tool's terms: per field, each term's frequency, and the field's length in terms. */
export interface ToolDocument {
  name: string;
  /** What the tool does, for search results: the first sentence of the description. */
  summary: string;
  /** What the semantic stage embeds with word vectors: the name's words and the first sentence. */
  text: string;
  /** What a sentence model embeds (`toolSearch.model`): the name's words, the description and the parameter names. Built when first read: only the model reads it. */
  readonly modelText: string;
  /** The definition's input schema (a reference), for results with `detail: "schema"`. */
  inputSchema: unknown;
  /** Changes whenever anything indexed changes: a tool whose fingerprint is the same is not re-indexed. Computed when first read: only a tool listed again under a new object needs it. */
  readonly fingerprint: string;
  fields: Record<Field, Map<string, number>>;
  /** What the tool does to things, from the verb of its name. Worked out when first read: only a tool that matched a request needs it. */
  readonly action: Action;
  /** The server's name, for telling when a request names the product. */
  server: string;
  /** Does the description say the tool is deprecated? */
  deprecated: boolean;
  /** Which built-in the tool is, if one. */
  builtIn: BuiltInKind | undefined;
  lengths: Record<Field, number>;
  /** The document's place in the index's score arrays; set by the index. */
  slot: number;
  /** The last index update whose listing had this tool; set by the index. */
  listedIn: number;
}

/**
 * Most characters of one field the index reads: past this a description says nothing more about
 * what the tool is for, and a 5 MB description from a server must not cost every search.
 */
export const MAX_INDEXED_FIELD_LENGTH = 10_000;

/** Longest summary shown in a result. */
const MAX_SUMMARY_LENGTH = 200;

/** The first sentence of a description, cut to a readable length. */
export function summarizeTool(description: string): string {
  const text = description.trim().replace(/\s+/g, " ");
  const end = text.search(/[.!?](\s|$)/);
  const sentence = end === -1 ? text : text.slice(0, end + 1);
  return sentence.length <= MAX_SUMMARY_LENGTH ? sentence : `${sentence.slice(0, MAX_SUMMARY_LENGTH - 1)}…`;
}

/** The server and the tool's own name: `github__create_issue` → ["github", "create_issue"]. */
function splitName(tool: ToolDefinition): { server: string; own: string } {
  if (tool.server) return { server: tool.server.name, own: tool.server.tool };
  const at = tool.name.indexOf(TOOL_NAME_SEPARATOR);
  return at === -1 ? { server: "", own: tool.name } : { server: tool.name.slice(0, at), own: tool.name.slice(at + TOOL_NAME_SEPARATOR.length) };
}

/** Parameter names, descriptions, titles and enum values, nested properties included. */
function parameterText(schema: unknown, depth = 0): string {
  if (depth > 4 || schema === null || typeof schema !== "object") return "";
  const node = schema as JsonSchema;
  const parts: string[] = [];
  for (const key of ["title", "description"] as const) if (typeof node[key] === "string") parts.push(node[key] as string);
  if (Array.isArray(node.enum)) parts.push(node.enum.filter((value) => typeof value === "string").join(" "));
  const properties = node.properties;
  if (properties !== null && typeof properties === "object") {
    for (const [name, property] of Object.entries(properties as Record<string, unknown>)) parts.push(name, parameterText(property, depth + 1));
  }
  if (node.items !== undefined) parts.push(parameterText(node.items, depth + 1));
  return parts.join(" ");
}

/** Longest description handed to a sentence model: it reads the first 128 tokens only. */
const MAX_MODEL_TEXT_LENGTH = 1_000;

/** The top-level parameter names, split into words ("issue number", "repo"). */
function parameterNames(schema: unknown): string[] {
  const properties = (schema as JsonSchema | null)?.properties;
  if (properties === null || typeof properties !== "object") return [];
  return Object.keys(properties as Record<string, unknown>).map((name) => splitWords(name).join(" "));
}

/** Annotations in words: a read-only tool reads, a destructive one deletes. */
function annotationText(tool: ToolDefinition): string {
  const annotations = tool.annotations ?? {};
  const parts: string[] = [annotations.title ?? ""];
  if (annotations.readOnlyHint === true) parts.push("read");
  if (annotations.destructiveHint === true) parts.push("delete");
  return parts.join(" ");
}

/** A word as written, kept apart from the stems: "=tables". */
export function surfaceTerm(word: string): string {
  return `=${word}`;
}

/** Shortest part of a compound name word worth splitting off ("work" + "log"). */
const SHORTEST_COMPOUND_PART = 3;
/** Longest word tried as a compound: each split point stems both halves, so the cost grows with the square of its length. */
const LONGEST_COMPOUND = 40;

/**
 * The two known words a compound is made of, when it is one: names often run words together
 * (`worklog`, `freebusy`, `gsheets`) where people write them apart.
 */
export function splitCompound(word: string): [string, string] | undefined {
  if (word.length < 2 * SHORTEST_COMPOUND_PART || word.length > LONGEST_COMPOUND || isKnownTerm(stemWord(word))) return undefined;
  for (let at = SHORTEST_COMPOUND_PART; at <= word.length - SHORTEST_COMPOUND_PART; at++) {
    const left = word.slice(0, at);
    const right = word.slice(at);
    if (isKnownTerm(stemWord(left)) && isKnownTerm(stemWord(right))) return [left, right];
  }
  // A one-letter brand prefix: "gsheets", "gdrive".
  const rest = word.slice(1);
  if (isKnownTerm(stemWord(rest))) return [word[0] as string, rest];
  return undefined;
}

/** Compound splits of name words seen before: catalogs repeat their name words, and each split tries every cut. */
const compounds = new Map<string, readonly string[]>();
const MAX_CACHED_COMPOUNDS = 50_000;

function compoundParts(word: string): readonly string[] {
  let parts = compounds.get(word);
  if (parts === undefined) {
    parts = splitCompound(word) ?? [];
    if (compounds.size >= MAX_CACHED_COMPOUNDS) compounds.clear();
    compounds.set(word, parts);
  }
  return parts;
}

function countTerms(text: string, field: Field): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (term: string) => counts.set(term, (counts.get(term) ?? 0) + 1);
  for (const term of tokenizeText(text)) add(term);
  if (field === "name" || field === "server") {
    for (const word of splitWords(text)) {
      if (isStopWord(word)) continue;
      counts.set(surfaceTerm(word), 1);
      for (const part of compoundParts(word)) if (!isStopWord(part)) add(stemWord(part));
    }
  }
  return counts;
}

/** Everything the index reads of a definition, as one string: equal fingerprints, equal documents. */
export function fingerprintTool(tool: ToolDefinition): string {
  return JSON.stringify([tool.name, tool.description, tool.inputSchema, tool.annotations ?? null, tool.server ?? null]);
}

/** The index document of one tool definition. */
export function toToolDocument(tool: ToolDefinition, knownFingerprint?: string): ToolDocument {
  const { server, own } = splitName(tool);
  const description = typeof tool.description === "string" ? tool.description.slice(0, MAX_INDEXED_FIELD_LENGTH) : "";
  const summary = summarizeTool(description);
  const texts: Record<Field, string> = {
    name: own,
    server,
    summary: `${summary} ${annotationText(tool)}`,
    description: description.slice(summary.length),
    parameters: parameterText(tool.inputSchema),
    intent: builtInIntent(tool),
  };
  const fields = {} as Record<Field, Map<string, number>>;
  const lengths = {} as Record<Field, number>;
  for (const field of FIELDS) {
    fields[field] = countTerms(texts[field].slice(0, MAX_INDEXED_FIELD_LENGTH), field);
    let length = 0;
    for (const [term, count] of fields[field]) if (!term.startsWith("=")) length += count;
    lengths[field] = length;
  }
  const words = splitWords(own).join(" ");
  return new IndexedTool(tool, own, words, description, summary, server, fields, lengths, knownFingerprint);
}

/**
 * A document whose costly parts wait until read: at 10,000 tools the first search builds every
 * document, and only tools that match a request need their action, only the model reads modelText,
 * and only a tool listed again under a new object needs its fingerprint. A class, so the getters
 * live on one prototype and every document has the same shape (getters on each object literal
 * made the ranker's reads of `slot` and `fields` several times slower).
 */
class IndexedTool implements ToolDocument {
  readonly name: string;
  readonly text: string;
  readonly inputSchema: unknown;
  readonly builtIn: BuiltInKind | undefined;
  readonly deprecated: boolean;
  slot = -1;
  listedIn = 0;
  #action: Action | undefined = undefined;
  #modelText: string | undefined = undefined;

  constructor(
    private readonly tool: ToolDefinition,
    private readonly own: string,
    private readonly words: string,
    private readonly description: string,
    readonly summary: string,
    readonly server: string,
    readonly fields: Record<Field, Map<string, number>>,
    readonly lengths: Record<Field, number>,
    private knownFingerprint: string | undefined,
  ) {
    this.name = tool.name;
    this.text = `${words}: ${summary}`;
    this.inputSchema = tool.inputSchema;
    this.builtIn = builtInKind(tool);
    this.deprecated = /\bdeprecated\b/i.test(description);
  }

  get action(): Action {
    return (this.#action ??= toolAction(this.own));
  }

  get modelText(): string {
    return (this.#modelText ??= `${this.words}: ${this.description.slice(0, MAX_MODEL_TEXT_LENGTH)} (${parameterNames(this.tool.inputSchema).join(", ")})`);
  }

  get fingerprint(): string {
    return (this.knownFingerprint ??= fingerprintTool(this.tool));
  }
}
