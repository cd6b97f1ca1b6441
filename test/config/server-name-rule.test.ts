/** One server-name rule for mcp.json and addServer (SERVER_NAME_PATTERN in core's tool-names). */
import { describe, expect, it } from "vitest";
import { SERVER_NAME_PATTERN } from "../../src/core/tool-names.js";
import { createExecutor } from "../../src/index.js";
import { createTempProject } from "../helpers/temp-project.js";

describe("SERVER_NAME_PATTERN", () => {
  it.each(["github", "a", "9lives", "github.v2-beta_1", "s".repeat(64)])("accepts %j", (name) => {
    expect(SERVER_NAME_PATTERN.test(name)).toBe(true);
  });

  it.each(["", " ", "my server", "café", "a__b", "__proto__", "_x", "-x", ".x", "a/b", "a\u0000b", "s".repeat(65)])("refuses %j", (name) => {
    expect(SERVER_NAME_PATTERN.test(name)).toBe(false);
  });
});

describe("addServer follows the same rule", () => {
  it("refuses a name with the server__tool separator, which it used to accept", async () => {
    const project = createTempProject({ tools: { tools: [] } });
    const executor = await createExecutor({ root: project.root, watch: false, logDir: false, logger: { debug() {}, info() {}, warn() {}, error() {} } });
    try {
      const added = await executor.addServer("a__b", { type: "http", url: "http://127.0.0.1:9/mcp" }, { trusted: true });
      expect(added.ok ? undefined : added.error).toMatchInlineSnapshot(`
        {
          "code": "CONFIG_INVALID",
          "message": "Expected a server name of 1-64 characters from A-Z a-z 0-9 _ - . that starts with a letter or digit and has no "__", got "a__b"",
        }
      `);
    } finally {
      await executor.close();
    }
  });
});
