/** Reads one config file and checks it against its zod schema, returning located issues. */
import { readFile } from "node:fs/promises";
import type { z } from "zod";
import type { ConfigIssue } from "../errors/config-error.js";
import { parseJsonDocument, type JsonDocument, formatJsonPath } from "./parse-json-document.js";
import { toConfigIssues } from "./zod-issues.js";

export type ReadConfigResult<T> =
  | { status: "ok"; data: T; document: JsonDocument }
  | { status: "missing"; issues: ConfigIssue[] }
  | { status: "invalid"; issues: ConfigIssue[] };

/** Read `absolutePath`, parse it strictly and validate it; `file` is the name used in messages. */
export async function readJsonConfig<Schema extends z.ZodType>(
  absolutePath: string,
  file: string,
  schema: Schema,
  missingHint: string,
): Promise<ReadConfigResult<z.infer<Schema>>> {
  let text: string;
  try {
    text = await readFile(absolutePath, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      return { status: "missing", issues: [{ file, path: "", message: `File not found at ${absolutePath}; ${missingHint}` }] };
    }
    return { status: "invalid", issues: [{ file, path: "", message: `Cannot read file: ${(error as Error).message}` }] };
  }
  const parsed = parseJsonDocument(text);
  if (!parsed.ok) return { status: "invalid", issues: [{ file, path: "", ...parsed.location, message: parsed.message }] };
  const { document } = parsed;
  const issues: ConfigIssue[] = document.duplicateKeys.map(({ path, location }) => ({
    file,
    path: formatJsonPath(path),
    ...location,
    message: `Duplicate key "${String(path[path.length - 1])}": JSON keeps only the last one, so remove one of them`,
  }));
  if (document.value === null || typeof document.value !== "object" || Array.isArray(document.value)) {
    issues.push({ file, path: "", line: 1, column: 1, message: `Expected a JSON object at the top level, got ${Array.isArray(document.value) ? "an array" : JSON.stringify(document.value)}` });
    return { status: "invalid", issues };
  }
  const result = schema.safeParse(document.value);
  if (!result.success) issues.push(...toConfigIssues(result.error.issues, schema, document, file));
  if (issues.length > 0 || !result.success) return { status: "invalid", issues };
  return { status: "ok", data: result.data, document };
}
