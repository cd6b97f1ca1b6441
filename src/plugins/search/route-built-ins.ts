/**
 * Routing to the built-ins by the shape of the request rather than its words. A request too vague
 * to act on — a verb and a generic object, no product, no name, no literal ("close it", "rename the
 * doc") — is answered best by asking the person (`request_human_input`); a request that quantifies
 * over many items and chains several actions ("for each …, check … and send …") is a program
 * (`code_execution`), and so is one that gives a rate or an amount among other numbers ("… at 4% over
 * 9 years"). "All" alone does not count: "list all containers" is one call.
 */
import { literalHints } from "./literal-hints.js";
import { relatedTerms } from "./related-words.js";
import { actionVerbCount, isActionVerb } from "./request-action.js";
import type { IndexStatistics } from "./tool-index.js";
import { tokenizeText } from "./tokenize-text.js";

/** Words that point at something without saying what it is. */
const VAGUE_WORDS = new Set(tokenizeText("old older one ones other others same again thing stuff whatever everything something"));

/**
 * Words that point back at something the person has in mind: a vague request refers ("fix it", "the
 * ticket"); a short request without one ("list tables") is a plain command.
 */
const REFERRING_WORDS = /\b(it|that|this|them|those|these|the|one|ones)\b/i;

/** Words that quantify over many items. */
const QUANTIFIERS = /\b(every|each)\b/i;

/** Most content words an underspecified request has. */
const MAX_VAGUE_REQUEST_TERMS = 2;
/** A term whose tools sit on at most this share of the servers (counted by their names' words; at least one) points at a product. */
const SPECIFIC_SERVER_SHARE = 0.1;

/** The servers of the tools that have any of the terms, counted up to `enough`. */
function serverSpread(index: IndexStatistics, terms: Iterable<string>, enough: number): Set<string> {
  const servers = new Set<string>();
  for (const candidate of terms) {
    for (const document of index.postings(candidate)) {
      servers.add(document.server);
      if (servers.size > enough) return servers;
    }
  }
  return servers;
}

/**
 * Is the request too vague to pick a tool: few content words, no literal, and each word either
 * names something every product has (issue, file, message) or is a verb?
 */
export function isUnderspecified(index: IndexStatistics, query: string, serverNames: ReadonlySet<string>): boolean {
  if (literalHints(query) !== "" || /\d/.test(query) || !REFERRING_WORDS.test(query)) return false;
  const terms = tokenizeText(query).filter((term) => !VAGUE_WORDS.has(term));
  if (terms.length > MAX_VAGUE_REQUEST_TERMS) return false;
  const specificSpread = Math.max(1, Math.floor(serverNames.size * SPECIFIC_SERVER_SHARE));
  for (const term of terms) {
    if (serverNames.has(term)) return false;
    // A verb says what to do, never to what: only the other words can make a request specific.
    if (isActionVerb(term)) continue;
    // A word few servers' tools use, by itself or through its relatives, points at a product.
    const own = serverSpread(index, [term], specificSpread);
    if (own.size > 0 && own.size <= specificSpread) return false;
    const spread = serverSpread(index, [term, ...relatedTerms(term)], specificSpread);
    // A word no tool and no thesaurus knows is a name of something: a specific request.
    if (spread.size === 0 && relatedTerms(term).size === 0) return false;
    if (spread.size > 0 && spread.size <= specificSpread) return false;
  }
  return true;
}

/** A number with a unit of proportion or money: "6.8%", "$450k", "12,000 EUR". */
const RATE_OR_AMOUNT = /\d(\.\d+)?\s?%|[$€£¥]\s?\d|\b\d[\d,.]*\s?(k|m|bn)?\s?(usd|eur|gbp|dollars?|euros?|pounds?)\b/i;
/** A number: "30", "1.5", "12,000". */
const NUMBER = /\d[\d,.]*/g;

/** Does the request give a rate or an amount among other numbers to work with: arithmetic, not a lookup? */
export function isArithmetic(query: string): boolean {
  return RATE_OR_AMOUNT.test(query) && (query.match(NUMBER)?.length ?? 0) >= 3;
}

/** Does the request ask for several actions over many items? */
export function isComposite(query: string): boolean {
  return QUANTIFIERS.test(query) && actionVerbCount(query) >= 2;
}

/** Which built-in, if any, the request's shape routes to. */
export function routeByShape(index: IndexStatistics, query: string, serverNames: ReadonlySet<string>): "human" | "code" | undefined {
  if (isUnderspecified(index, query, serverNames)) return "human";
  if (isComposite(query) || isArithmetic(query)) return "code";
  return undefined;
}
