/** Schemas derived from real Python functions: each kind of type hint and each docstring style. */
import { beforeAll, describe, expect, it } from "vitest";
import type { Executor } from "../../src/index.js";
import { pythonProject, startExecutor } from "./python-test-helpers.js";

const names = ["scalars", "containers", "choices", "structures", "google", "numpy_style", "rest_style"];
let executor: Executor;

beforeAll(async () => {
  executor = await startExecutor(pythonProject([
    ...names.map((name) => ({ name, function: `hinted.py:${name}` })),
    { name: "explicit", function: "hinted.py:google", description: "Written by hand", inputSchema: { type: "object", properties: { path: { type: "string" } } } },
  ], true), {}, true);
});

async function tool(name: string) {
  const found = (await executor.listTools()).find((definition) => definition.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return { description: found.description, inputSchema: found.inputSchema, outputSchema: found.outputSchema };
}

describe("schemas from type hints", () => {
  it("str, int, float, bool and None", async () => {
    expect(await tool("scalars")).toMatchInlineSnapshot(`
      {
        "description": "Scalars.",
        "inputSchema": {
          "additionalProperties": false,
          "properties": {
            "count": {
              "type": "integer",
            },
            "flag": {
              "type": "boolean",
            },
            "nothing": {
              "default": null,
              "type": "null",
            },
            "ratio": {
              "type": "number",
            },
            "text": {
              "type": "string",
            },
          },
          "required": [
            "text",
            "count",
            "ratio",
            "flag",
          ],
          "type": "object",
        },
        "outputSchema": {
          "type": "string",
        },
      }
    `);
  });
  it("list[T], dict[str, T], tuple[A, B] and tuple[T, ...]", async () => {
    expect(await tool("containers")).toMatchInlineSnapshot(`
      {
        "description": "Containers.",
        "inputSchema": {
          "additionalProperties": false,
          "properties": {
            "many": {
              "items": {
                "type": "integer",
              },
              "type": "array",
            },
            "names": {
              "items": {
                "type": "string",
              },
              "type": "array",
            },
            "pair": {
              "maxItems": 2,
              "minItems": 2,
              "prefixItems": [
                {
                  "type": "integer",
                },
                {
                  "type": "string",
                },
              ],
              "type": "array",
            },
            "scores": {
              "additionalProperties": {
                "type": "number",
              },
              "type": "object",
            },
          },
          "required": [
            "names",
            "scores",
            "pair",
            "many",
          ],
          "type": "object",
        },
        "outputSchema": {
          "items": {
            "type": "integer",
          },
          "type": "array",
        },
      }
    `);
  });
  it("Optional, X | None, Literal and Enum, with defaults", async () => {
    expect(await tool("choices")).toMatchInlineSnapshot(`
      {
        "description": "Choices.",
        "inputSchema": {
          "additionalProperties": false,
          "properties": {
            "either": {
              "anyOf": [
                {
                  "type": "integer",
                },
                {
                  "type": "string",
                },
                {
                  "type": "null",
                },
              ],
            },
            "maybe": {
              "anyOf": [
                {
                  "type": "integer",
                },
                {
                  "type": "null",
                },
              ],
            },
            "mode": {
              "default": "fast",
              "enum": [
                "fast",
                "slow",
              ],
              "type": "string",
            },
            "unit": {
              "default": "km",
              "enum": [
                "km",
                "mi",
              ],
              "type": "string",
            },
          },
          "required": [
            "maybe",
            "either",
          ],
          "type": "object",
        },
        "outputSchema": {
          "type": "null",
        },
      }
    `);
  });
  it("TypedDict, dataclass and Annotated descriptions", async () => {
    expect(await tool("structures")).toMatchInlineSnapshot(`
      {
        "description": "Structures.",
        "inputSchema": {
          "additionalProperties": false,
          "properties": {
            "count": {
              "default": 3,
              "description": "How many to make",
              "type": "integer",
            },
            "order": {
              "additionalProperties": false,
              "description": "An order to place.",
              "properties": {
                "item": {
                  "type": "string",
                },
                "quantity": {
                  "default": 1,
                  "type": "integer",
                },
              },
              "required": [
                "item",
              ],
              "type": "object",
            },
            "point": {
              "additionalProperties": false,
              "description": "A point on a plane.",
              "properties": {
                "x": {
                  "type": "number",
                },
                "y": {
                  "type": "number",
                },
              },
              "required": [
                "x",
                "y",
              ],
              "type": "object",
            },
          },
          "required": [
            "point",
            "order",
          ],
          "type": "object",
        },
        "outputSchema": {
          "additionalProperties": false,
          "description": "An order to place.",
          "properties": {
            "item": {
              "type": "string",
            },
            "quantity": {
              "default": 1,
              "type": "integer",
            },
          },
          "required": [
            "item",
          ],
          "type": "object",
        },
      }
    `);
  });
  it("an explicit inputSchema and description win over the derived ones", async () => {
    expect(await tool("explicit")).toMatchInlineSnapshot(`
      {
        "description": "Written by hand",
        "inputSchema": {
          "properties": {
            "path": {
              "type": "string",
            },
          },
          "type": "object",
        },
        "outputSchema": {
          "description": "The paths found.",
          "items": {
            "type": "string",
          },
          "type": "array",
        },
      }
    `);
  });
});

describe("descriptions from docstrings", () => {
  it("Google style", async () => {
    expect(await tool("google")).toMatchInlineSnapshot(`
      {
        "description": "Find files.

      Longer text that is not the summary's first paragraph.",
        "inputSchema": {
          "additionalProperties": false,
          "properties": {
            "limit": {
              "default": 10,
              "description": "At most this many.",
              "type": "integer",
            },
            "path": {
              "description": "Folder to search, relative to the project.",
              "type": "string",
            },
          },
          "required": [
            "path",
          ],
          "type": "object",
        },
        "outputSchema": {
          "description": "The paths found.",
          "items": {
            "type": "string",
          },
          "type": "array",
        },
      }
    `);
  });
  it("NumPy and reST styles give the same descriptions as Google style", async () => {
    expect(await tool("numpy_style")).toEqual(await tool("google"));
    expect(await tool("rest_style")).toEqual(await tool("google"));
  });
});
