/**
 * One tool as the index sees it: the terms of each of its fields. Every part of a definition says
 * something about what the tool is for — its own name, its server's name, the first sentence of
 * its description (what it does), the rest (when to use it), its parameters' names, descriptions
 * and allowed values, and its annotations.
 */
import type { JsonSchema, ToolDefinition } from "../../core/plugin-contract.js";
import { TOOL_NAME_SEPARATOR } from "../../core/tool-names.js";
import { builtInIntent, builtInKind, type BuiltInKind } from "./built-in-intents.js";
import type { TermCounter } from "./document-terms.js";
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

/**
 * Most characters of one field the index reads: past this a description says nothing more about
 * what the tool is for, and a 5 MB description from a server must not cost every search.
 */
export const MAX_INDEXED_FIELD_LENGTH = 10_000;

/** Longest summary shown in a result. */
const MAX_SUMMARY_LENGTH = 200;

/** Runs of white space other than one space: made one space (a single space is left as it is, without a copy). */
const WHITE_SPACE = /\s{2,}|[^\S ]/g;

/** The first sentence of a description, its white space made single spaces, cut to a readable length. */
export function summarizeTool(description: string): string {
  // The first sentence is found before the white space is normalized, which ends it at the same
  // place: only the sentence is copied, not a whole description (that copy was ~15 % of indexing).
  const text = description.trim();
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

/** Parameter names, descriptions, titles and enum values, nested properties included. */
function parameterText(schema: unknown, depth = 0): string {
  if (depth > 4 || schema === null || typeof schema !== "object") return "";
  const node = schema as JsonSchema;
  const parts: string[] = [];
  if (typeof node.title === "string") parts.push(node.title);
  if (typeof node.description === "string") parts.push(node.description);
  if (Array.isArray(node.enum)) parts.push(node.enum.filter((value) => typeof value === "string").join(" "));
  const properties = node.properties as Record<string, unknown> | null | undefined;
  if (properties !== null && typeof properties === "object") {
    // Keys, not entries: a pair array per property was most of this function's cost at 10,000 tools.
    for (const name of Object.keys(properties)) parts.push(name, parameterText(properties[name], depth + 1));
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

/** Everything the index reads of a definition, as one string: equal fingerprints, equal documents. */
export function fingerprintTool(tool: ToolDefinition): string {
  return JSON.stringify([tool.name, tool.description, tool.inputSchema, tool.annotations ?? null, tool.server ?? null]);
}

/** The index document of one tool definition, its terms counted by the index's `counter`. */
export function toToolDocument(tool: ToolDefinition, counter: TermCounter, knownFingerprint?: string): ToolDocument {
  const { server, own } = splitName(tool);
  const description = typeof tool.description === "string" ? tool.description.slice(0, MAX_INDEXED_FIELD_LENGTH) : "";
  const summary = summarizeTool(description);
  const builtIn = builtInKind(tool);
  const texts = [own, server, `${summary} ${annotationText(tool)}`, description.slice(summary.length), parameterText(tool.inputSchema), builtInIntent(builtIn)];
  const terms = counter.count(texts.map((text) => text.slice(0, MAX_INDEXED_FIELD_LENGTH)));
  return new IndexedTool(tool, own, description, summary, server, terms, builtIn, knownFingerprint);
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
