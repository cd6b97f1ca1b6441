/**
 * A small thesaurus of the vocabulary tools and their users share: the verbs of tool names (get,
 * create, delete, search...) and the nouns of the products tools wrap (issue, message, file, page,
 * deploy...). People ask in their own words, not the tool's; each group lists words that name the
 * same action or thing closely enough that a tool described with one answers a request using another.
 * General vocabulary only, grouped by meaning; it knows no particular tool.
 */
import { tokenizeText } from "./tokenize-text.js";

const GROUPS: readonly string[] = [
  // Actions
  "get fetch retrieve read obtain grab load pull open view display lookup",
  "list enumerate browse index overview inventory",
  "create add new make insert open start setup register compose",
  "update edit modify change set alter patch adjust bump tweak amend rename",
  "delete remove erase drop destroy purge discard trash clear",
  "search find query lookup locate seek filter discover hunt look",
  "send post publish share notify announce broadcast deliver",
  "reply respond answer",
  "write save store persist record log remember note",
  "move rename relocate transfer",
  "copy duplicate clone",
  "run execute launch invoke start trigger perform",
  "stop halt kill terminate end cancel abort shutdown",
  "cancel unsubscribe terminate discontinue end stop",
  "merge combine join integrate consolidate",
  "deploy release ship rollout publish",
  "rollback revert undo restore previous back downgrade",
  "scale replicas resize grow shrink capacity",
  "convert translate transform change turn",
  "summarize summary describe overview digest stats statistics profile",
  "analyze analysis inspect diagnose investigate examine health check audit",
  "explain plan",
  "approve review accept sign",
  "assign owner assignee responsible",
  "download export save attachment",
  "upload import attach",
  "calculate compute calculation computation math arithmetic formula",
  "compare diff difference changes changed",
  "schedule book plan arrange",
  "ask question clarify confirm confirmation clarification",
  "react reaction emoji",
  "transition status state move progress",
  "resolve fix close done complete",
  // Things
  "issue ticket bug problem defect task incident story card report",
  "error exception crash failure fault bug broke broken fail failed failing",
  "message chat post dm conversation thread say said says talk mention discuss",
  "channel room chat",
  "email mail inbox gmail message",
  "draft unsent",
  "file document doc attachment deck slides presentation",
  "folder directory dir path",
  "page wiki doc article note notes documentation knowledge",
  "spreadsheet sheet sheets gsheets excel table cell workbook row column",
  "drive gdrive google",
  "database db sql table schema",
  "table tables relation",
  "query sql select statement",
  "repository repo project codebase",
  "branch ref main master trunk",
  "commit history log changes",
  "history recent latest past log",
  "pull merge request pr mr",
  "log logs output trace",
  "container docker",
  "image picture photo png jpeg jpg",
  "pod pods workload cluster kubernetes k8s kubectl",
  "deployment deploy rollout",
  "calendar event meeting appointment schedule invite",
  "free busy availability available slot",
  "time clock timezone zone hour",
  "weather forecast temperature rain snow wind sunny storm",
  "alert alerts warning warnings advisory emergency",
  "current now today present latest",
  "location place address city venue",
  "map maps directions route navigate",
  "distance travel drive driving far miles kilometers km",
  "elevation altitude height sea level",
  "coordinates latitude longitude geocode",
  "payment pay charge charging billing invoice checkout",
  "customer client account buyer",
  "subscription plan recurring renewal billing",
  "price pricing cost amount",
  "refund reimburse chargeback",
  "balance funds money",
  "link url",
  "web internet online website site",
  "page url website webpage",
  "user person people member profile",
  "team group org organization",
  "sprint cycle iteration",
  "worklog time spent hours logged",
  "graph knowledge memory entity entities fact facts observation remember recall",
  "chart plot graph visualize visualization diagram",
  "unit units measurement",
  "pdf document",
  "text content contents body",
  "status state",
  "code source",
  "job workflow pipeline ci build",
  "release version tag",
  "project projects",
  "comment note remark feedback",
];

/** Each term with the terms of its groups (itself excluded), built once. */
const RELATED = buildRelated();

function buildRelated(): Map<string, Set<string>> {
  const related = new Map<string, Set<string>>();
  for (const group of GROUPS) {
    const terms = [...new Set(tokenizeText(group))];
    for (const term of terms) {
      const set = related.get(term) ?? new Set<string>();
      for (const other of terms) if (other !== term) set.add(other);
      related.set(term, set);
    }
  }
  return related;
}

/**
 * The terms related to one index term (stemmed), best kept apart from the term itself: a match on
 * a related term counts for less than a match on the word the person wrote.
 *
 * @example
 * relatedTerms("fetch"); // Set { "get", "retriev", "read", ... }
 */
export function relatedTerms(term: string): ReadonlySet<string> {
  return RELATED.get(term) ?? EMPTY;
}

const EMPTY: ReadonlySet<string> = new Set();

/** Is the (stemmed) term one the thesaurus knows? */
export function isKnownTerm(term: string): boolean {
  return RELATED.has(term);
}
