/**
 * One tool as the index sees it: the terms of each of its fields. Every part of a definition says
 * something about what the tool is for — its own name, its server's name, the first sentence of
 * its description (what it does), the rest (when to use it), its parameters' names, descriptions
 * and allowed values, and its annotations.
 */
import type { JsonSchema, ToolDefinition } from "../../core/plugin-contract.js";
import { TOOL_NAME_SEPARATOR } from "../../core/tool-names.js";
import { builtInIntent, builtInKind, type BuiltInKind } from "./built-in-intents.js";
import { MAX_INDEXED_FIELD_LENGTH, type TermCounter } from "./document-terms.js";
import { toolAction, type Action } from "./request-action.js";
import { splitWords } from "./tokenize-text.js";

/** The fields a tool is indexed by, most telling first. */
export const FIELDS = ["name", "server", "summary", "description", "parameters", "intent"] as const;
export type Field = (typeof FIELDS)[number];

/** A tool as indexed: what results show, and its terms by field (see document-terms). */
export interface ToolDocument {
  name: string;
  /** What the tool does, for search results: the first sentence of the description. */
  summary: string;
  /** The tool's own name, its server's left out: `create_issue`. */
  readonly ownName: string;
  /** What a host's embedding function embeds: the name's words and the first sentence. Built when first read: the word vectors embed `ownName` and `summary` as they are. */
  readonly text: string;
  /**
   * The word-vector ranks of the words of `ownName` and then of `summary` as the index scanned them
   * (`embeddingRanks.subarray(embeddingFrom, embeddingTo)`, an array shared with other documents),
   * for the word vectors to add up without scanning again; only from an index that keeps them
   * (see kept-word-ranks), and dropped once embedded.
   */
  embeddingRanks: Int32Array | undefined;
  embeddingFrom: number;
  embeddingTo: number;
  /** What a sentence model embeds (`toolSearch.model`): the name's words, the description and the parameter names. Built when first read: only the model reads it. */
  readonly modelText: string;
  /** The definition's input schema (a reference), for results with `detail: "schema"`. */
  inputSchema: unknown;
  /** Changes whenever anything indexed changes: a tool whose fingerprint is the same is not re-indexed. Computed when first read: only a tool listed again under a new object needs it. */
  readonly fingerprint: string;
  /** Each field's term ids with their counts, and the fields' lengths: see document-terms. */
  terms: Int32Array;
  /** The definition last indexed as this document: the same object listed again is not looked at. */
  definition: ToolDefinition;
  /** What the tool does to things, from the verb of its name. Worked out when first read: only a tool that matched a request needs it. */
  readonly action: Action;
  /** The server's name, for telling when a request names the product. */
  server: string;
  /** Does the description say the tool is deprecated? */
  deprecated: boolean;
  /** Which built-in the tool is, if one. */
  builtIn: BuiltInKind | undefined;
  /** The document's place in the index's score arrays; set by the index. */
  slot: number;
  /** The last index update whose listing had this tool; set by the index. */
  listedIn: number;
}

export { MAX_INDEXED_FIELD_LENGTH };

/** Longest summary shown in a result. */
const MAX_SUMMARY_LENGTH = 200;

/** Runs of white space other than one space: made one space (a single space is left as it is, without a copy). */
const WHITE_SPACE = /\s{2,}|[^\S ]/g;

/** Does the text begin and end with a printable ASCII character (no white space to trim)? */
function isTrimmed(text: string): boolean {
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(text.length - 1);
  return first > 32 && first < 127 && last > 32 && last < 127;
}

/** The first sentence of a description, its white space made single spaces, cut to a readable length. */
export function summarizeTool(description: string): string {
  // The first sentence is found before the white space is normalized, which ends it at the same
  // place: only the sentence is copied, not a whole description (that copy was ~15 % of indexing).
  // Most descriptions have no white space at either end, and trimming one copies it all the same.
  const text = isTrimmed(description) ? description : description.trim();
  const end = text.search(/[.!?](\s|$)/);
  const sentence = (end === -1 ? text : text.slice(0, end + 1)).replace(WHITE_SPACE, " ");
  return sentence.length <= MAX_SUMMARY_LENGTH ? sentence : `${sentence.slice(0, MAX_SUMMARY_LENGTH - 1)}…`;
}

/** The server and the tool's own name: `github__create_issue` → ["github", "create_issue"]. */
function splitName(tool: ToolDefinition): { server: string; own: string } {
  if (tool.server) return { server: tool.server.name, own: tool.server.tool };
  const at = tool.name.indexOf(TOOL_NAME_SEPARATOR);
  return at === -1 ? { server: "", own: tool.name } : { server: tool.name.slice(0, at), own: tool.name.slice(at + TOOL_NAME_SEPARATOR.length) };
}

/**
 * Parameter names, descriptions, titles and enum values, nested properties included, appended to
 * `parts` with the spaces between them as parts of their own: joined, they are the field's text.
 * Parts, not one joined string: at 10,000 tools the joins of every level were a tenth of indexing.
 */
function parameterParts(schema: unknown, parts: string[], depth = 0): void {
  if (depth > 4 || schema === null || typeof schema !== "object") return;
  const node = schema as JsonSchema;
  // This level's parts so far: each after the first follows a space, as joining the level puts (an empty part too).
  let count = 0;
  if (typeof node.title === "string") count = separated(parts, count), parts.push(node.title);
  if (typeof node.description === "string") count = separated(parts, count), parts.push(node.description);
  if (Array.isArray(node.enum)) {
    count = separated(parts, count);
    let values = 0;
    for (const value of node.enum) if (typeof value === "string") values = separated(parts, values), parts.push(value);
  }
  const properties = node.properties as Record<string, unknown> | null | undefined;
  if (properties !== null && typeof properties === "object") {
    // Keys, not entries: a pair array per property was most of this function's cost at 10,000 tools.
    for (const name of Object.keys(properties)) {
      count = separated(parts, count);
      parts.push(name);
      count = separated(parts, count);
      parameterParts(properties[name], parts, depth + 1);
    }
  }
  if (node.items !== undefined) count = separated(parts, count), parameterParts(node.items, parts, depth + 1);
}

/** Puts the space before a level's next part (none before its first); returns the level's count of parts with it. */
function separated(parts: string[], count: number): number {
  if (count > 0) parts.push(" ");
  return count + 1;
}

/** Longest description handed to a sentence model: it reads the first 128 tokens only. */
const MAX_MODEL_TEXT_LENGTH = 1_000;

/** The top-level parameter names, split into words ("issue number", "repo"). */
function parameterNames(schema: unknown): string[] {
  const properties = (schema as JsonSchema | null)?.properties;
  if (properties === null || typeof properties !== "object") return [];
  return Object.keys(properties as Record<string, unknown>).map((name) => splitWords(name).join(" "));
}

/** Annotations in words, appended to `parts` as the words they add to the summary's field: its title, "read" for a read-only tool, "delete" for a destructive one. */
function annotationParts(tool: ToolDefinition, parts: string[]): void {
  const annotations = tool.annotations ?? {};
  parts.push(annotations.title ?? "");
  if (annotations.readOnlyHint === true) parts.push(" ", "read");
  if (annotations.destructiveHint === true) parts.push(" ", "delete");
}

/** Everything the index reads of a definition, as one string: equal fingerprints, equal documents. */
export function fingerprintTool(tool: ToolDefinition): string {
  return JSON.stringify([tool.name, tool.description, tool.inputSchema, tool.annotations ?? null, tool.server ?? null]);
}

const summaryField: string[] = [];
const parameterField: string[] = [];

/** The index document of one tool definition, its terms counted by the index's `counter`. */
export function toToolDocument(tool: ToolDefinition, counter: TermCounter, knownFingerprint?: string): ToolDocument {
  const { server, own } = splitName(tool);
  const description = typeof tool.description === "string" ? tool.description.slice(0, MAX_INDEXED_FIELD_LENGTH) : "";
  const summary = summarizeTool(description);
  const builtIn = builtInKind(tool);
  // The fields in FIELDS order; the summary's and the parameters' as parts (see FieldText), in
  // arrays reused from one tool to the next: the counter reads them before this returns.
  summaryField.length = 0;
  summaryField.push(summary, " ");
  annotationParts(tool, summaryField);
  parameterField.length = 0;
  parameterParts(tool.inputSchema, parameterField);
  const terms = counter.count([own, server, summaryField, description.slice(summary.length), parameterField, builtInIntent(builtIn)]);
  const document = new IndexedTool(tool, own, description, summary, server, terms, builtIn, knownFingerprint);
  document.embeddingRanks = counter.embeddingRanks();
  document.embeddingFrom = counter.embeddingFrom;
  document.embeddingTo = counter.embeddingTo;
  return document;
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
  readonly inputSchema: unknown;
  readonly deprecated: boolean;
  slot = -1;
  listedIn = 0;
  embeddingRanks: Int32Array | undefined = undefined;
  embeddingFrom = 0;
  embeddingTo = 0;
  #action: Action | undefined = undefined;
  #modelText: string | undefined = undefined;
  #words: string | undefined = undefined;
  #text: string | undefined = undefined;

  constructor(
    public definition: ToolDefinition,
    readonly ownName: string,
    private readonly description: string,
    readonly summary: string,
    readonly server: string,
    readonly terms: Int32Array,
    readonly builtIn: BuiltInKind | undefined,
    private knownFingerprint: string | undefined,
  ) {
    this.name = definition.name;
    this.inputSchema = definition.inputSchema;
    this.deprecated = /\bdeprecated\b/i.test(description);
  }

  get action(): Action {
    return (this.#action ??= toolAction(this.ownName));
  }

  /** The name's words: `create issue`. */
  get #nameWords(): string {
    return (this.#words ??= splitWords(this.ownName).join(" "));
  }

  get text(): string {
    return (this.#text ??= `${this.#nameWords}: ${this.summary}`);
  }

  get modelText(): string {
    return (this.#modelText ??= `${this.#nameWords}: ${this.description.slice(0, MAX_MODEL_TEXT_LENGTH)} (${parameterNames(this.definition.inputSchema).join(", ")})`);
  }

  get fingerprint(): string {
    return (this.knownFingerprint ??= fingerprintTool(this.definition));
  }
}
