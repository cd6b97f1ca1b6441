/**
 * Writes schema/tools.schema.json, the JSON Schema editors use to complete and check tools.json,
 * from the zod schema the loader itself uses (so the two cannot disagree): the core's keys and the
 * keys the built-in plugins own (`builtInToolsConfigSchema`).
 *
 * Run `npm run build && npm run schema`; it reads the compiled schema from dist/.
 * test/schema/tools-schema.test.ts calls `renderToolsJsonSchema` on the source schema and fails
 * when the committed file is stale.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { z } from "zod";

/** Where the file is served once the package is published; editors use the `$schema` path instead. */
export const TOOLS_SCHEMA_ID = "https://unpkg.com/toolexec/schema/tools.schema.json";
export const TOOLS_SCHEMA_FILE = fileURLToPath(new URL("../schema/tools.schema.json", import.meta.url));

const TITLE = "toolexec tools.json";
const DESCRIPTION =
  "Local script tools for toolexec: one entry per Python, shell or Node script in tools/, " +
  "with its JSON Schemas and limits. Unknown keys are errors. Reference: docs/config.md.";

/**
 * The JSON Schema (draft 2020-12) of tools.json as the text of the committed file.
 *
 * @example
 * const text = renderToolsJsonSchema(await builtInToolsConfigSchema());
 */
export function renderToolsJsonSchema(toolsConfigSchema) {
  // "input": the shape people write, before any zod defaults or transforms would apply. The zod
  // root description is a one-liner; the file's own DESCRIPTION replaces it.
  const { $schema, description: _rootDescription, ...generated } = z.toJSONSchema(toolsConfigSchema, { target: "draft-2020-12", io: "input" });
  const document = { $schema, $id: TOOLS_SCHEMA_ID, title: TITLE, description: DESCRIPTION, ...generated };
  return `${JSON.stringify(document, null, 2)}\n`;
}

async function main() {
  const compiled = new URL("../dist/load-project-config.js", import.meta.url);
  let toolsConfigSchema;
  try {
    toolsConfigSchema = await (await import(compiled.href)).builtInToolsConfigSchema();
  } catch (error) {
    throw new Error(`Cannot load ${fileURLToPath(compiled)} (${error.message}); run \`npm run build\` first`, { cause: error });
  }
  await writeFile(TOOLS_SCHEMA_FILE, renderToolsJsonSchema(toolsConfigSchema));
  console.log(`Wrote ${path.relative(process.cwd(), TOOLS_SCHEMA_FILE)}`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error) => {
    console.error(error.message);
    process.exitCode = 1;
  });
}
