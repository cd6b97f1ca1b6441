/**
 * `toolexec init`: scaffold a project that passes `toolexec validate` and whose tools can be
 * called at once. It never overwrites a file: if any target exists, nothing is written.
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { CommandContext } from "./command-context.js";
import { INSTALLED_SCHEMA_PATH, projectTemplate } from "./project-template.js";
import { CliError } from "./usage-error.js";
import { cliInvocation } from "../core/cli-invocation.js";

/**
 * `$schema` for tools.json: toolexec's schema where npm installed it for this project (in the root's
 * node_modules or a parent's, as in a monorepo), relative to the root. When toolexec is not
 * installed, the path where `npm install toolexec` will put it.
 */
function schemaPath(root: string): { path: string; installed: boolean } {
  for (let folder = root; ; folder = path.dirname(folder)) {
    const candidate = path.join(folder, "node_modules", "toolexec", "schema", "tools.schema.json");
    if (existsSync(candidate)) {
      const relative = path.relative(root, candidate).split(path.sep).join("/");
      return { path: relative.startsWith("../") ? relative : `./${relative}`, installed: true };
    }
    if (path.dirname(folder) === folder) return { path: INSTALLED_SCHEMA_PATH, installed: false };
  }
}

export async function runInit(context: CommandContext): Promise<number> {
  const root = path.resolve(context.cwd, context.values.root ?? ".");
  const schema = schemaPath(root);
  const files = projectTemplate(schema.path);
  const existing = files.filter((file) => existsSync(path.join(root, file.path))).map((file) => file.path);
  if (existing.length > 0) throw new CliError(`Not overwriting ${existing.join(", ")} in ${root}: move ${existing.length === 1 ? "it" : "them"} away or pick another folder with --root`);
  for (const file of files) {
    const target = path.join(root, file.path);
    await mkdir(path.dirname(target), { recursive: true });
    // "wx": a file created since the check above is still not overwritten.
    await writeFile(target, file.content, { flag: "wx", mode: file.mode });
  }
  const width = Math.max(...files.map((file) => file.path.length));
  const rootFlag = context.values.root === undefined ? "" : ` --root ${context.values.root}`;
  const cli = cliInvocation();
  const lines = [
    `Created in ${root}:`,
    ...files.map((file) => `  ${file.path.padEnd(width)}  ${file.about}`),
    "",
    "Next:",
    `  ${cli} validate${rootFlag}`,
    `  ${cli} tools call greet${rootFlag} --args '{"name": "Ada"}'`,
  ];
  if (!schema.installed) lines.push("", `Editor completion for tools.json: npm install --save-dev toolexec (its "$schema" points at ${INSTALLED_SCHEMA_PATH}).`);
  context.output.out(lines.join("\n"));
  return 0;
}
