/** `tools list` shows each argument's type, also for unions (`Optional[bool]` is `boolean | null`, not `any`). */
import { expect, it } from "vitest";
import { createTempProject } from "../helpers/temp-project.js";
import { runCli } from "./run-cli.js";

const MODULE = `from typing import Optional, Union


def search(query: str, exact: Optional[bool] = None, limit: Union[int, str, None] = None, tags: Optional[list[str]] = None) -> str:
    """Search the notes."""
    return query
`;

it("a Python function's Optional and Union arguments are listed with their member types", async () => {
  const project = createTempProject({ tools: { tools: [{ name: "search", function: "notes.py:search" }] } });
  project.write("tools/notes.py", MODULE);
  const result = await runCli(["tools", "list", "--root", project.root]);
  expect(result.code).toBe(0);
  expect(result.stdout).toContain("args: query*: string, exact: boolean | null, limit: integer | string | null, tags: string[] | null\n");
  // The schema itself is pydantic's and FastMCP's shape for Optional[bool].
  const json = JSON.parse((await runCli(["tools", "list", "--root", project.root, "--json"])).stdout) as { name: string; inputSchema: { properties: Record<string, unknown> } }[];
  expect(json[0]!.inputSchema.properties.exact).toMatchObject({ anyOf: [{ type: "boolean" }, { type: "null" }], default: null });
});
