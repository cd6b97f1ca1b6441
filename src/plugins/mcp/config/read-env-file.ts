/** A stdio server's `envFile` (VS Code): a dotenv file under the project, read when the entry is resolved. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseDotenv } from "../../../core/config/parse-dotenv.js";
import type { ResolveProblem } from "./resolve-mcp-server.js";

/**
 * The variables of `file` (relative to `root`); a missing or unreadable file, or a bad line, is an
 * environmental problem in `problems` (only that server is unavailable) and gives no variables.
 *
 * @example
 * readEnvFile(".env.github", "/project", problems); // { GITHUB_TOKEN: "…" }
 */
export function readEnvFile(file: string, root: string, problems: ResolveProblem[]): Record<string, string> {
  const absolute = path.resolve(root, file);
  let text: string;
  try {
    text = readFileSync(absolute, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    problems.push({ path: ["envFile"], message: code === "ENOENT" ? `envFile not found at ${absolute}` : `Cannot read envFile ${absolute}: ${(error as Error).message}`, environmental: true });
    return {};
  }
  const parsed = parseDotenv(text);
  if (!parsed.ok) {
    problems.push({ path: ["envFile"], message: `${absolute}:${parsed.line}: ${parsed.message}`, environmental: true });
    return {};
  }
  return parsed.values;
}
