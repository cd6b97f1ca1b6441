/**
 * What the literal things in a request say about where they live: a path is a file on disk, a URL
 * a web page, `#name` a chat channel, `:name:` an emoji, `ABC-123` an issue key, `SELECT …` SQL,
 * `name@host` an email address, `owner/repo` a repository. People paste these instead of naming
 * the product; each adds a few words to the query, at a related word's weight.
 */

const HINTS: ReadonlyArray<readonly [RegExp, string]> = [
  [/(^|\s)(\.{1,2}|~)\/[\w./-]*/, "file path local disk directory"],
  [/(^|\s)\/[\w.-]+\/[\w./-]*/, "file path local disk directory"],
  [/\b[\w-]+\.(md|txt|json|ya?ml|csv|log|py|ts|js|toml|ini|cfg|conf|html|xml)\b/i, "file text"],
  [/\b[\w-]+\.(png|jpe?g|gif|webp|heic|svg|mp3|wav)\b/i, "file image media"],
  [/\bhttps?:\/\/\S+|\bwww\.\S+/i, "url web page fetch"],
  [/(^|\s)#[a-z][\w-]*/i, "channel message"],
  [/(^|\s):[a-z_+-]+:/i, "emoji reaction"],
  [/\b[A-Z][A-Z0-9]{1,9}-\d+\b/, "issue jira"],
  [/\b(select|insert|update|delete)\b[\s\S]*\b(from|into|set|where)\b/i, "sql query"],
  [/\b[\w.+-]+@[\w-]+\.[\w.]+\b/, "email address"],
  [/(^|\s)[\w-]+\/[\w.-]+(\s|$)/, "repository"],
  [/\b[a-z]+[A-Z]\w*\(|\b\w+\(\)?/, "code function"],
  [/\b\d+(\.\d+)?\s?(km|mi|kg|lb|lbs|oz|°[cf]|celsius|fahrenheit|miles|kilometers|meters|feet|inches|pounds|ounces|liters|gallons)\b/i, "unit convert"],
];

/** The hint words of the literals in a request, space-separated; "" when it has none. */
export function literalHints(query: string): string {
  const hints: string[] = [];
  for (const [pattern, words] of HINTS) if (pattern.test(query)) hints.push(words);
  return hints.join(" ");
}

/**
 * Literals that name a thing by where it is (a path, a URL, a file, an email address): their words
 * say which thing, not what to do with it ("/var/log/syslog" is not about logs as a tool means them).
 */
const NAMING_LITERALS = /(?:^|\s)(?:\.{1,2}|~)?\/[\w./-]+|\bhttps?:\/\/\S+|\bwww\.\S+|\b[\w.+-]+@[\w-]+\.[\w.]+\b|\b[\w-]+(?:\/[\w-]+)*\.[a-z0-9]{2,4}\b/gi;

/** A file's extension says what kind of file, which a tool may be for ("contract.pdf"): it stays with the request's own words. */
const EXTENSION = /\.([a-z0-9]{2,4})$/i;

/** A request's naming literals, space-separated ("" when it has none), and the rest of it with the literals' file extensions. */
export function separateLiterals(query: string): { literals: string; rest: string } {
  return { literals: (query.match(NAMING_LITERALS) ?? []).join(" "), rest: query.replace(NAMING_LITERALS, (literal) => ` ${EXTENSION.exec(literal)?.[1] ?? ""} `) };
}
