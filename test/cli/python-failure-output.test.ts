/** `tools call` in plain text: a Python function's exception shows where it was raised (the traceback's last lines). */
import { expect, it } from "vitest";
import { createTempProject } from "../helpers/temp-project.js";
import { runCli } from "./run-cli.js";

const MODULE = `def parse_total(text: str) -> float:
    return float(text)


def total(text: str) -> float:
    """Parse a total."""
    return parse_total(text)
`;

it("a Python function that raises shows its traceback's last lines, not only the exception", async () => {
  const project = createTempProject({ tools: { tools: [{ name: "total", function: "totals.py:total" }] } });
  project.write("tools/totals.py", MODULE);
  const result = await runCli(["tools", "call", "total", "--args", '{"text": "twelve"}', "--root", project.root]);
  expect(result.code).toBe(1);
  // Python 3.11+ underlines the failing expression (^^^); older versions do not.
  const stderr = result.stderr.replace(/[0-9a-f-]{36}/, "<id>").replaceAll(project.root, "<root>").replace(/^ *[\^~]+ *\n/gm, "");
  expect(stderr).toMatchInlineSnapshot(`
    "error TOOL_FAILED: total raised ValueError: could not convert string to float: 'twelve'
    traceback (last lines):
      Traceback (most recent call last):
        File "<root>/tools/totals.py", line 7, in total
          return parse_total(text)
        File "<root>/tools/totals.py", line 2, in parse_total
          return float(text)
      ValueError: could not convert string to float: 'twelve'
    execution id: <id>
    "
  `);
});
