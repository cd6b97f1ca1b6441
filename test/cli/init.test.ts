/** `toolexec init`: a project that validates and whose tools answer, and never a file overwritten. */
import { cpSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createTempProject } from "../helpers/temp-project.js";
import { BIN, runCli } from "./run-cli.js";

const require = createRequire(import.meta.url);
const Ajv2020 = require("ajv/dist/2020").default as typeof import("ajv/dist/2020.js").default;
const SCHEMA_FILE = path.join(path.dirname(BIN), "..", "..", "schema", "tools.schema.json");

/** An empty folder (createTempProject's without its files), and a not-yet-existing folder inside it. */
function emptyFolder(): string {
  return createTempProject({ mcp: false }).root;
}

describe("toolexec init", () => {
  it("scaffolds a project that passes validate and whose two example tools answer", async () => {
    const parent = emptyFolder();
    const created = await runCli(["init", "--root", "my-tools"], { cwd: parent });
    expect(created.code).toBe(0);
    expect(created.stdout.replaceAll(parent, "<parent>")).toMatchInlineSnapshot(`
      "Created in <parent>/my-tools:
        tools.json           two example tools: word_count and greet
        tools/word_count.py  a Python tool
        tools/greet.sh       a shell tool
        mcp.json             no MCP servers yet (see docs/cli.md for an example entry)

      Next:
        npx toolexec validate --root my-tools
        npx toolexec tools call greet --root my-tools --args '{"name": "Ada"}'

      Editor completion for tools.json: npm install --save-dev toolexec (its "$schema" points at ./node_modules/toolexec/schema/tools.schema.json).
      "
    `);

    const root = path.join(parent, "my-tools");
    expect(await runCli(["validate", "--root", root])).toMatchObject({ code: 0, stdout: "ok: 2 tool(s) in tools.json, 0 server(s) in mcp.json\n", stderr: "" });
    const counted = await runCli(["tools", "call", "word_count", "--root", root, "--args", '{"text": "one two\\nthree"}']);
    expect(counted).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(counted.stdout)).toEqual({ words: 3, lines: 2, characters: 13 });
    // A quote and a backslash in the name must still give valid JSON from the shell script.
    const greeted = await runCli(["tools", "call", "greet", "--root", root, "--args", JSON.stringify({ name: 'Ada "the" \\ first' })]);
    expect(greeted).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(greeted.stdout)).toEqual({ greeting: 'Hello, Ada "the" \\ first!' });
  });

  it("writes a tools.json that the published JSON Schema accepts, with $schema where npm installs toolexec", async () => {
    const root = emptyFolder();
    expect((await runCli(["init", "--root", root])).code).toBe(0);
    const config = JSON.parse(readFileSync(path.join(root, "tools.json"), "utf8")) as Record<string, unknown>;
    expect(config.$schema).toBe("./node_modules/toolexec/schema/tools.schema.json");
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(JSON.parse(readFileSync(SCHEMA_FILE, "utf8")));
    validate(config);
    expect(validate.errors ?? []).toEqual([]);
  });

  it("points $schema at toolexec installed in a parent folder (a monorepo), and says nothing about installing it", async () => {
    const parent = emptyFolder();
    mkdirSync(path.join(parent, "node_modules", "toolexec", "schema"), { recursive: true });
    cpSync(SCHEMA_FILE, path.join(parent, "node_modules", "toolexec", "schema", "tools.schema.json"));
    const result = await runCli(["init", "--root", "packages/agent"], { cwd: parent });
    expect(result.stdout).not.toContain("npm install");
    const config = JSON.parse(readFileSync(path.join(parent, "packages", "agent", "tools.json"), "utf8")) as Record<string, unknown>;
    expect(config.$schema).toBe("../../node_modules/toolexec/schema/tools.schema.json");
  });

  it("refuses to overwrite: exit 1, the files named, nothing written", async () => {
    const project = createTempProject({ tools: { tools: [] } });
    const result = await runCli(["init", "--root", project.root]);
    expect(result.code).toBe(1);
    expect(result.stderr.replaceAll(project.root, "<root>")).toMatchInlineSnapshot(`
      "toolexec init: Not overwriting tools.json, mcp.json in <root>: move them away or pick another folder with --root
      "
    `);
    expect(readFileSync(project.path("tools.json"), "utf8")).toBe('{\n  "tools": []\n}');
    expect(existsSync(project.path("tools/greet.sh"))).toBe(false);
  });
});
