/**
 * What the built-in tools are for, in the words of requests rather than of their descriptions.
 * `code_execution` and `request_human_input` do not name an object ("issue", "file"): they answer a
 * kind of request — one that needs computing or many steps, one too vague to act on — so their
 * descriptions share few words with the requests they fit. Each gets an extra index field of the
 * vocabulary of such requests; `request_human_input` also wins when a request is underspecified
 * (see `isUnderspecified` in rank-tools). `web_search` names its object ("the web") but people ask
 * for what it finds: the news, what is current, public facts.
 */
import { CODE_EXECUTION_TOOL_NAME, HUMAN_INPUT_TOOL_NAME, TOOL_NAME_SEPARATOR, WEB_SEARCH_TOOL_NAME } from "../../core/tool-names.js";
import type { ToolDefinition } from "../../core/plugin-contract.js";

/** Requests that need computing, transforming data, or composing many calls. */
const CODE_EXECUTION_INTENT =
  "calculate compute calculation computation math arithmetic formula equation sum total average mean median percent percentage " +
  "each every all loop batch bulk many multiple several combine merge join dedupe deduplicate duplicates unique distinct count " +
  "aggregate group sort rank transform reshape parse clean normalize analyze analysis data dataset csv json then and " +
  "script program algorithm simulate automate workflow steps";

/** Requests that cannot be acted on without asking: which one, what exactly, is it safe to do. */
const HUMAN_INPUT_INTENT =
  "ask user person human clarify clarification confirm confirmation approve approval permission decide decision choose choice " +
  "which one unclear ambiguous vague unsure missing context irreversible sure";

/** Requests for what is public and current: news, facts, pages anyone can read. */
const WEB_SEARCH_INTENT =
  "web internet online news headlines today latest current recent happening announced public article articles site sites " +
  "look up research information facts";

/** The built-ins with an intent field. */
export type BuiltInKind = "code" | "human" | "web";

const BUILT_IN_NAMES = [CODE_EXECUTION_TOOL_NAME, HUMAN_INPUT_TOOL_NAME, WEB_SEARCH_TOOL_NAME];

/** Does the name end with a built-in's name? (A loop: a callback per tool showed at 10,000 tools.) */
function endsWithBuiltInName(name: string): boolean {
  for (const builtIn of BUILT_IN_NAMES) if (name.endsWith(builtIn)) return true;
  return false;
}

/** The built-in a definition is, by its name or server-qualified name, if any. */
export function builtInKind(tool: ToolDefinition): BuiltInKind | undefined {
  // A name that ends with none of them is none of them: most tools, decided without splitting the name.
  if (tool.server === undefined && !endsWithBuiltInName(tool.name)) return undefined;
  const name = tool.server?.tool ?? tool.name.split(TOOL_NAME_SEPARATOR).pop() ?? tool.name;
  if (name === CODE_EXECUTION_TOOL_NAME) return "code";
  if (name === HUMAN_INPUT_TOOL_NAME) return "human";
  if (name === WEB_SEARCH_TOOL_NAME) return "web";
  return undefined;
}

const INTENTS: Record<BuiltInKind, string> = { code: CODE_EXECUTION_INTENT, human: HUMAN_INPUT_INTENT, web: WEB_SEARCH_INTENT };

/** The extra intent text of a built-in tool, by its kind; empty for every other tool. */
export function builtInIntent(kind: BuiltInKind | undefined): string {
  return kind === undefined ? "" : INTENTS[kind];
}
