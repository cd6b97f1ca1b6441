/**
 * The kind of action a request asks for and a tool performs: finding (search, list), reading one
 * thing (get, read), creating, changing, deleting, sending, or operating something. Many tools of one product differ only in
 * that verb (`list_issues`, `create_issue`, `update_issue`), and people rarely use the tool's verb:
 * they ask questions ("which pods are up?") when they want to read, and name a change when they want
 * one. A tool whose action agrees with the request's ranks above its siblings.
 */
import { stemWord } from "./stem-word.js";
import { isAscii, splitWords, stemOf, WordScanner } from "./tokenize-text.js";
import { WordTable } from "./word-table.js";

export type Action = "find" | "read" | "create" | "update" | "delete" | "send" | "operate";

/** Verbs by the action they ask for, as people and tool names use them. */
const ACTION_VERBS: Record<Action, readonly string[]> = {
  find: ["search", "find", "list", "query", "lookup", "locate", "browse"],
  read: ["get", "read", "fetch", "retrieve", "describe", "view", "show", "explain", "analyze", "check", "download", "inspect", "count", "summarize", "extract", "report"],
  create: ["create", "add", "new", "make", "write", "draft", "insert", "register", "compose", "record", "remember", "setup", "build", "plot", "render"],
  update: ["update", "edit", "modify", "change", "set", "mark", "rename", "move", "transition", "resolve", "assign", "bump", "adjust", "replace", "fix", "convert", "resize", "crop"],
  delete: ["delete", "remove", "erase", "purge", "destroy", "drop", "trash"],
  send: ["send", "post", "reply", "notify", "share", "announce", "dm", "forward"],
  operate: ["run", "execute", "exec", "start", "stop", "restart", "kill", "scale", "apply", "rollout", "rollback", "revert", "deploy", "pull", "push", "merge", "cancel", "refund", "commit", "stage", "charge"],
};

const ACTION_OF_WORD = new Map<string, Action>();
for (const [action, verbs] of Object.entries(ACTION_VERBS) as Array<[Action, readonly string[]]>) {
  for (const verb of verbs) if (!ACTION_OF_WORD.has(stemWord(verb))) ACTION_OF_WORD.set(stemWord(verb), action);
}

/** Words that make a request a question, hence a read, unless it also names a change. */
const QUESTION_WORDS = new Set(["what", "which", "where", "who", "whom", "when", "how", "why", "is", "are", "ani", "whats", "wheres", "did", "doe", "ha", "have", "were", "wa"]);

/** "pull request" and "merge request" are things, not a pull or a merge. */
const COMPOUND_NOUNS = /\b(pull|merge)[\s_-]+requests?\b/gi;

/**
 * Phrasal verbs whose particle changes the action: "set up" creates (a plain "set" changes), "look
 * up" finds, "shut down" stops, "roll back" reverts, "sign up" registers.
 */
const PHRASAL_VERBS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(set|spin|make|draw|write|put|draft)s?\s+up\b/gi, "create"],
  [/\b(set|setting|spinning|making|drawing|writing|putting)\s+up\b/gi, "create"],
  [/\b(look|looking|looks|find|finding|finds|figure|figuring)\s+(up|out)\b/gi, "find"],
  [/\b(shut|shutting|shuts|take|taking|takes|bring|bringing|brings)\s+down\b/gi, "stop"],
  [/\b(roll|rolling|rolls)\s+back\b/gi, "rollback"],
  [/\b(sign|signing|signs)\s+up\b/gi, "register"],
  [/\b(clean|cleaning|cleans)\s+up\b/gi, "delete"],
];

/** The text with its phrasal verbs and compound nouns made one word each. */
export function joinPhrases(text: string): string {
  let joined = text.replace(/'/g, "").replace(COMPOUND_NOUNS, "pr");
  for (const [pattern, verb] of PHRASAL_VERBS) joined = joined.replace(pattern, verb);
  return joined;
}

/** The stems of a text's words, phrasal verbs and compound nouns made one word. */
function stemsOf(text: string): string[] {
  return splitWords(joinPhrases(text)).map(stemWord);
}

/**
 * The action of a tool: that of the first verb of its own name (`create_pull_request_review` →
 * create); a name with no verb is a read ("fetch", "git_log").
 */
export function toolAction(ownName: string): Action {
  // Phrasal verbs need a space between their words and a name seldom has one (nor an apostrophe):
  // then only the compound nouns can change it. The first search at 10,000 tools works this out for
  // thousands of matched tools, so stems come from the tokenizer's cache and the first verb ends it.
  const joined = /[\s']/.test(ownName) ? joinPhrases(ownName) : ownName.replace(COMPOUND_NOUNS, "pr");
  if (isAscii(joined)) {
    // Words found by their characters, as the index finds them: no array and no string per word.
    scanner.reset(joined);
    while (scanner.next()) {
      const action = nameWordActions.get(joined, scanner.start, scanner.end, actionOfWord);
      if (action) return action;
    }
    return "read";
  }
  for (const word of splitWords(joined)) {
    const action = actionOfWord(word);
    if (action) return action;
  }
  return "read";
}

/** The action of a word's verb, if it is one (null, not undefined: the table keeps it). */
const actionOfWord = (word: string): Action | null => ACTION_OF_WORD.get(stemOf(word)) ?? null;
/** Name words seen before, with their action; bounded like the index's own table. */
const nameWordActions = new WordTable<Action | null>(50_000);
const scanner = new WordScanner("");

/**
 * The actions a request asks for: that of its first verb, or finding and reading when it asks a
 * question; empty when it says neither. Finding and reading go together: a person who says "get
 * the ticket about X" often has no id to get it by.
 */
export function requestActions(query: string): Set<Action> {
  const words = stemsOf(query);
  // A question asks to find or read, whatever verb it uses ("what got merged?"); a command's
  // first verb is its action ("list the containers, stopped ones too").
  if (words[0] !== undefined && QUESTION_WORDS.has(words[0])) return new Set(["find", "read"]);
  for (const word of words) {
    const action = ACTION_OF_WORD.get(word);
    if (action) return new Set(action === "find" || action === "read" ? ["find", "read"] : [action]);
  }
  return new Set(words.some((word) => QUESTION_WORDS.has(word)) ? ["find", "read"] : []);
}

/** How many different action verbs a request uses ("check … and post …" uses two). */
export function actionVerbCount(query: string): number {
  return new Set(stemsOf(query).filter((stem) => ACTION_OF_WORD.has(stem))).size;
}

/** Is the stem one of an action's verbs ("renam", "delet")? */
export function isActionVerb(stem: string): boolean {
  return ACTION_OF_WORD.has(stem);
}
