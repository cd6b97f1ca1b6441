/** Seeded random schemas, mixing every supported keyword and hostile names, still give declarations that compile. */
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../src/core/plugin-contract.js";
import { generateToolDeclarations } from "../../src/plugins/code/declarations/tool-declarations.js";
import { typeCheck } from "./type-check.js";

const NAMES = ["id", "class", "content-type", "2fa", "with space", 'quote"d', "*/", "$ref", "__proto__", "constructor", "ünïcode", "a.b", ""];
const STRINGS = ['say "hi"', "it's", "back\\slash", "*/", "/*", "line\nbreak", "\u2028", "`tick`", "${x}"];
const DEFINITIONS = ["node", "leaf-item", "2d", "Promise", "ToolSchemas"];

/** Park–Miller: a tiny seeded generator, so a failure always reproduces. */
function randomFrom(seed: number) {
  let state = seed;
  const next = () => (state = (state * 48_271) % 2_147_483_647) / 2_147_483_647;
  return {
    below: (limit: number) => Math.floor(next() * limit),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (probability: number) => next() < probability,
  };
}

type Random = ReturnType<typeof randomFrom>;

function randomSchema(random: Random, depth: number): unknown {
  if (random.chance(0.05)) return random.chance(0.5);
  const choice = depth > 3 ? random.below(5) : random.below(13);
  const description = random.chance(0.3) ? { description: `About ${random.pick(STRINGS)}` } : {};
  switch (choice) {
    case 0:
      return { type: random.pick(["string", "number", "integer", "boolean", "null"]), ...description, ...(random.chance(0.3) ? { format: "uri", minimum: 1, pattern: "*/" } : {}) };
    case 1:
      return { enum: [random.pick(STRINGS), random.below(10), null, random.chance(0.5)] };
    case 2:
      return { const: random.pick(STRINGS) };
    case 3:
      return { $ref: `#/$defs/${random.pick(DEFINITIONS)}` };
    case 4:
      return { type: ["string", "null"], nullable: true };
    case 5:
    case 6: {
      const properties = Object.fromEntries(Array.from({ length: random.below(4) }, () => [random.pick(NAMES), randomSchema(random, depth + 1)]));
      const required = Object.keys(properties).filter(() => random.chance(0.5));
      const additional = random.chance(0.3) ? { additionalProperties: randomSchema(random, depth + 1) } : random.chance(0.3) ? { additionalProperties: false } : {};
      return { type: "object", properties, required: random.chance(0.2) ? [...required, random.pick(NAMES)] : required, ...additional, ...description };
    }
    case 7:
      return { type: "array", items: randomSchema(random, depth + 1) };
    case 8:
      return { type: "array", prefixItems: [randomSchema(random, depth + 1), randomSchema(random, depth + 1)], minItems: random.below(3), items: random.chance(0.5) ? false : randomSchema(random, depth + 1) };
    case 9:
      return { oneOf: [randomSchema(random, depth + 1), randomSchema(random, depth + 1)] };
    case 10:
      return { anyOf: [randomSchema(random, depth + 1), { $ref: "#" }] };
    case 11:
      return { allOf: [randomSchema(random, depth + 1), randomSchema(random, depth + 1)] };
    default:
      return { type: "object", patternProperties: { "^x": randomSchema(random, depth + 1) }, additionalProperties: random.chance(0.5) };
  }
}

function randomTool(random: Random, index: number): ToolDefinition {
  const $defs = Object.fromEntries(DEFINITIONS.map((name) => [name, randomSchema(random, 1)]));
  const inputSchema = { type: "object", properties: { value: randomSchema(random, 1), other: randomSchema(random, 1) }, $defs };
  const server = random.pick(["", "srv__", "my-server__", "9lives__"]);
  return { name: `${server}tool-${index}`, description: `Random tool ${index} */ with ${random.pick(STRINGS)}`, inputSchema, outputSchema: { ...(randomSchema(random, 0) as object), $defs } };
}

describe("random schemas", () => {
  it.each([1, 2, 3, 4, 5])("compile under strict with zero errors (seed %i)", (seed) => {
    const random = randomFrom(seed * 7_919);
    const tools = Array.from({ length: 25 }, (_, index) => randomTool(random, index));
    expect(typeCheck({ "/virtual/declarations.ts": generateToolDeclarations(tools) })).toEqual([]);
  });
});
