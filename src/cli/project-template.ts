/**
 * The files `toolexec init` writes: tools.json with two example tools (Python and shell, written
 * the way docs/script-tools.md describes), the two scripts, and an mcp.json without servers.
 */

/** Where tools.json's `$schema` points when toolexec is installed in the project (npm puts it there). */
export const INSTALLED_SCHEMA_PATH = "./node_modules/toolexec/schema/tools.schema.json";

const WORD_COUNT_PY = `"""word_count: the words, lines and characters of a text. A toolexec script tool.

toolexec writes the arguments as one JSON object on stdin (already checked against inputSchema)
and reads the result as JSON on stdout. Print logs to stderr; exit non-zero with a one-line reason
on stderr to fail the call.
"""
import json
import sys

args = json.load(sys.stdin)
text = args["text"]
json.dump({"words": len(text.split()), "lines": len(text.splitlines()), "characters": len(text)}, sys.stdout)
`;

const GREET_SH = `#!/usr/bin/env bash
# greet: a greeting for a person. A toolexec script tool.
# toolexec exports each top-level argument as TOOLEXEC_ARG_<NAME>, so a shell tool needs no JSON
# parser (the arguments are on stdin as JSON too). Print the result as JSON on stdout; print a
# one-line reason on stderr and exit non-zero to fail the call.
set -euo pipefail

name=\${TOOLEXEC_ARG_NAME:?name is required}
# Escape \\ and " before the value goes into JSON (inputSchema already refuses control characters).
name=\${name//\\\\/\\\\\\\\}
name=\${name//\\"/\\\\\\"}
printf '{"greeting":"Hello, %s!"}\\n' "$name"
`;

function toolsJson(schemaPath: string): string {
  const config = {
    $schema: schemaPath,
    tools: [
      {
        name: "word_count",
        description: "Count the words, lines and characters of a text. Returns { words, lines, characters }.",
        runtime: "python",
        script: "word_count.py",
        inputSchema: {
          type: "object",
          properties: { text: { type: "string", description: "The text to count." } },
          required: ["text"],
          additionalProperties: false,
        },
        outputSchema: {
          type: "object",
          properties: { words: { type: "integer" }, lines: { type: "integer" }, characters: { type: "integer" } },
          required: ["words", "lines", "characters"],
        },
        annotations: { readOnlyHint: true },
        parallel: true,
      },
      {
        name: "greet",
        description: "Greet a person by name. Returns { greeting }.",
        runtime: "shell",
        script: "greet.sh",
        inputSchema: {
          type: "object",
          properties: { name: { type: "string", minLength: 1, maxLength: 100, pattern: "^[^\\u0000-\\u001f]*$", description: "Who to greet." } },
          required: ["name"],
          additionalProperties: false,
        },
        annotations: { readOnlyHint: true },
        parallel: true,
      },
    ],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

export interface TemplateFile {
  /** Relative to the project root. */
  path: string;
  content: string;
  /** File mode; scripts with a shebang are made executable so they can be tried by hand. */
  mode: number;
  /** What the file is, for the summary `init` prints. */
  about: string;
}

/**
 * @example
 * projectTemplate(INSTALLED_SCHEMA_PATH).map((file) => file.path); // ["tools.json", "tools/word_count.py", "tools/greet.sh", "mcp.json"]
 */
export function projectTemplate(schemaPath: string): TemplateFile[] {
  return [
    { path: "tools.json", content: toolsJson(schemaPath), mode: 0o644, about: "two example tools: word_count and greet" },
    { path: "tools/word_count.py", content: WORD_COUNT_PY, mode: 0o644, about: "a Python tool" },
    { path: "tools/greet.sh", content: GREET_SH, mode: 0o755, about: "a shell tool" },
    { path: "mcp.json", content: `${JSON.stringify({ mcpServers: {} }, null, 2)}\n`, mode: 0o644, about: "no MCP servers yet (see docs/cli.md for an example entry)" },
  ];
}
