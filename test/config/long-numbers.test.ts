/** Numbers of any length in a config file: a located CONFIG_INVALID issue, never a bare TypeError. */
import { describe, expect, it } from "vitest";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { configErrorText } from "./config-test-helpers.js";

/** tools.json with one tool whose `timeoutMs` is `number`, written as raw JSON text on line 3. */
function projectWithTimeout(number: string) {
  const entry = JSON.stringify(toolEntry("echo", "shell", "echo.sh")).slice(0, -1);
  const project = createTempProject({ tools: `{\n  "tools": [\n    ${entry}, "timeoutMs": ${number}}\n  ]\n}\n` });
  project.useFixtures("echo.sh");
  return project;
}

describe("a config number longer than the parser's old 400-character window", () => {
  it("a 500-digit timeoutMs is a located issue", async () => {
    const text = await configErrorText(projectWithTimeout(`1${"0".repeat(499)}`));
    expect(text).toMatch(/^tools\.json:3:\d+ tools\[0\]\.timeoutMs: Expected a number, got Infinity$/);
  });

  it("1e400 is a located issue too", async () => {
    expect(await configErrorText(projectWithTimeout("1e400"))).toMatch(/^tools\.json:3:\d+ tools\[0\]\.timeoutMs: Expected a number, got Infinity$/);
  });

  it("a 700-character number that is fine still lets another problem of the file be located", async () => {
    const project = projectWithTimeout("5000");
    const entry = { ...toolEntry("echo", "shell", "echo.sh"), inputSchema: { type: "object", properties: { n: { type: "number", maximum: 1 } } }, colour: "red" };
    project.write("tools.json", `{\n  "tools": [\n    ${JSON.stringify(entry).replace('"maximum":1', `"maximum": 0.${"1".repeat(700)}`)}\n  ]\n}\n`);
    expect(await configErrorText(project)).toMatch(/^tools\.json:3:\d+ tools\[0\]\.colour: Unknown key/);
  });
});
