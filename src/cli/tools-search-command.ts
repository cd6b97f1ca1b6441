/**
 * `toolexec tools search "<request>"`: the project's tools ranked for a request, as `search_tools`
 * ranks them (tools.json's `toolSearch`, a model included). A first search with a model embeds the
 * tools that have no cached vector: its progress goes to stderr.
 */
import type { CommandContext } from "./command-context.js";
import { selectProjectFiles } from "./project-options.js";
import { parseWholeNumber } from "./read-input.js";
import { UsageError } from "./usage-error.js";
import { withExecutor } from "./with-executor.js";

export async function runToolsSearch(context: CommandContext): Promise<number> {
  const request = context.positionals[0] ?? "";
  if (request.trim() === "") throw new UsageError("Give the request to search for, in plain words", context.command);
  const limit = parseWholeNumber(context.values.limit, "--limit", 1, context.command) ?? 10;
  if (limit > 100) throw new UsageError(`--limit expects a whole number from 1 to 100, got ${limit}`, context.command);
  const project = selectProjectFiles(context.values, context.cwd, context.command);
  const results = await withExecutor(context, project, { logDir: false }, async (executor) => {
    executor.on("search:progress", ({ embedded, total }) => context.output.err(`embedding tools for search: ${embedded}/${total}`));
    return executor.searchTools(request, { limit });
  });
  if (context.values.json) {
    context.output.out(JSON.stringify(results, null, 2));
    return 0;
  }
  if (results.length === 0) {
    context.output.err("No tool matched.");
    return 0;
  }
  const width = Math.max(...results.map((result) => result.name.length));
  context.output.out(results.map((result, at) => `${String(at + 1).padStart(2)}. ${result.name.padEnd(width)}  ${result.score.toFixed(3)}  ${result.summary}`).join("\n"));
  return 0;
}
