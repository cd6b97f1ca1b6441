/** Reads one config file and checks it against its zod schema, returning located issues. */
import { readFile } from "node:fs/promises";
import type { z } from "zod";
import type { ConfigIssue } from "../errors/config-error.js";
import { decodeConfigText } from "../json/decode-config-text.js";
import { describeValue } from "../json/describe-value.js";
import { parseJsonDocument, type JsonDocument, formatJsonPath } from "../json/parse-json-document.js";
import { loadZodWording } from "./zod-wording.js";

export type ReadConfigResult<T> =
  | { status: "ok"; data: T; document: JsonDocument }
  | { status: "missing"; issues: ConfigIssue[] }
  /** `document` is there when the file is a JSON object, so callers can check more of it. */
  | { status: "invalid"; issues: ConfigIssue[]; document?: JsonDocument };

function readFailure(error: unknown, absolutePath: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EISDIR") return `Expected a file at ${absolutePath}, got a folder`;
  if (code === "EACCES" || code === "EPERM") return `Cannot read ${absolutePath}: permission denied`;
  return `Cannot read ${absolutePath}: ${(error as Error).message}`;
}

/**
 * Read `absolutePath`, parse it strictly and validate it; `file` is the name used in messages.
 * `content`, when given, is checked instead of the file's (a registry write validates its new text
 * before it touches the disk). `isWellFormed`, when given, is a cheap check that vouches for values
 * the schema accepts (large files, and a start without zod); when it returns false the schema decides
 * and words the issues. `schema` may be a function that loads it: it is then called only when needed.
 */
export async function readJsonConfig<Schema extends z.ZodType>(
  absolutePath: string,
  file: string,
  schema: Schema | (() => Promise<Schema>),
  missingHint: string,
  content?: Uint8Array,
  isWellFormed?: (value: unknown) => boolean,
): Promise<ReadConfigResult<z.infer<Schema>>> {
  let bytes: Uint8Array;
  try {
    bytes = content ?? (await readFile(absolutePath));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      return { status: "missing", issues: [{ file, path: "", message: `File not found at ${absolutePath}; ${missingHint}` }] };
    }
    return { status: "invalid", issues: [{ file, path: "", message: readFailure(error, absolutePath) }] };
  }
  const decoded = decodeConfigText(bytes);
  if (!decoded.ok) return { status: "invalid", issues: [{ file, path: "", ...decoded.location, message: decoded.message }] };
  const parsed = parseJsonDocument(decoded.text);
  if (!parsed.ok) return { status: "invalid", issues: [{ file, path: "", ...parsed.location, message: parsed.message }] };
  const { document } = parsed;
  const issues: ConfigIssue[] = document.duplicateKeys.map(({ path, location }) => ({
    file,
    path: formatJsonPath(path),
    ...location,
    message: `Duplicate key "${String(path[path.length - 1])}": JSON keeps only the last one, so remove one of them`,
  }));
  const { value } = document;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    issues.push({ file, path: "", ...document.locate([]), message: `Expected a JSON object at the top level, got ${describeValue(value)}` });
    return { status: "invalid", issues };
  }
  if (isWellFormed?.(value) !== true) {
    const checking = typeof schema === "function" ? await schema() : schema;
    const result = checking.safeParse(value);
    if (!result.success) issues.push(...(await loadZodWording()).toConfigIssues(result.error.issues, checking, document, file));
  }
  if (issues.length > 0) return { status: "invalid", issues, document };
  // The document's own value, not zod's copy: zod rebuilds records by assignment, which turns a
  // "__proto__" key (a server or env name) into the prototype and drops it. The config schemas
  // have no defaults or transforms, so the two are otherwise the same.
  return { status: "ok", data: value as z.infer<Schema>, document };
}
