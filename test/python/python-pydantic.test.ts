/** Pydantic models as parameters and results, where pydantic is installed (Debian's python3-pydantic here). */
import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import type { Executor } from "../../src/index.js";
import { pythonProject, startExecutor } from "./python-test-helpers.js";

const pydantic = spawnSync("python3", ["-c", "import pydantic; assert pydantic.VERSION >= '2'"]).status === 0;
if (!pydantic) console.warn("python-pydantic tests skipped: python3 cannot import pydantic 2 (install python3-pydantic or pip install 'pydantic>=2')");

describe.runIf(pydantic)("pydantic models", () => {
  let executor: Executor;
  beforeAll(async () => {
    executor = await startExecutor(pythonProject([{ name: "place_order", function: "pydantic_tools.py:place_order" }], true), {}, true);
  });

  it("give the schema of model_json_schema, with $defs inlined", async () => {
    const tool = (await executor.listTools()).find((definition) => definition.name === "place_order");
    expect({ inputSchema: tool?.inputSchema, outputSchema: tool?.outputSchema }).toMatchInlineSnapshot(`
      {
        "inputSchema": {
          "additionalProperties": false,
          "properties": {
            "order": {
              "properties": {
                "items": {
                  "items": {
                    "description": "One line of an order.",
                    "properties": {
                      "name": {
                        "description": "What to buy",
                        "title": "Name",
                        "type": "string",
                      },
                      "quantity": {
                        "default": 1,
                        "minimum": 1,
                        "title": "Quantity",
                        "type": "integer",
                      },
                    },
                    "required": [
                      "name",
                    ],
                    "title": "Item",
                    "type": "object",
                  },
                  "title": "Items",
                  "type": "array",
                },
                "shipping": {
                  "default": "standard",
                  "enum": [
                    "standard",
                    "express",
                  ],
                  "title": "Shipping",
                  "type": "string",
                },
              },
              "required": [
                "items",
              ],
              "title": "Order",
              "type": "object",
            },
          },
          "required": [
            "order",
          ],
          "type": "object",
        },
        "outputSchema": {
          "properties": {
            "count": {
              "title": "Count",
              "type": "integer",
            },
            "express": {
              "title": "Express",
              "type": "boolean",
            },
            "first": {
              "description": "One line of an order.",
              "properties": {
                "name": {
                  "description": "What to buy",
                  "title": "Name",
                  "type": "string",
                },
                "quantity": {
                  "default": 1,
                  "minimum": 1,
                  "title": "Quantity",
                  "type": "integer",
                },
              },
              "required": [
                "name",
              ],
              "title": "Item",
              "type": "object",
            },
          },
          "required": [
            "count",
            "express",
            "first",
          ],
          "title": "Receipt",
          "type": "object",
        },
      }
    `);
  });

  it("arrive constructed and validated, and return dumped", async () => {
    const result = await executor.callTool("place_order", { order: { items: [{ name: "tea", quantity: 2 }, { name: "cup" }], shipping: "express" } });
    expect(result).toMatchObject({ ok: true, value: { count: 3, express: true, first: { name: "tea", quantity: 2 } } });
  });

  it("answer a model validator's refusal with INVALID_INPUT and pydantic's message", async () => {
    const result = await executor.callTool("place_order", { order: { items: [] } });
    if (result.ok) throw new Error("expected a failure");
    expect({ code: result.error.code, message: result.error.message }).toMatchInlineSnapshot(`
      {
        "code": "INVALID_INPUT",
        "message": "place_order refused its arguments: order: 1 validation error for Order
      items
        Value error, an order needs at least one item [type=value_error, input_value=[], input_type=list]",
      }
    `);
  });
});
