/**
 * Compiling a tool's validator does not compile its dialect's meta-schema: the schema was checked
 * before (`checkSchema`, which needs ajv's meta-schema only for schemas its own walk cannot settle),
 * and a first compile that validated against the 2020-12 meta-schema cost ~100 ms of CPU. Its own
 * file: the ajv instances are per module, and another test's meta-schema check would compile it.
 */
import { expect, it } from "vitest";
import { ajvForDialect } from "../../src/core/schema/ajv-for-dialect.js";
import { compileSchema, findSchemaProblems } from "../../src/core/schema/schema-validator.js";
import { codeExecutionInputSchema } from "../../src/plugins/code/declarations/code-execution-input-schema.js";

const META_2020 = "https://json-schema.org/draft/2020-12/schema";

/** Whether ajv has compiled the meta-schema's validator (its SchemaEnv gets `validate` when compiled). */
function metaSchemaCompiled(): boolean {
  const schemas = (ajvForDialect("2020-12") as unknown as { schemas: Record<string, { validate?: unknown } | undefined> }).schemas;
  return typeof schemas[META_2020]?.validate === "function";
}

it("compiles a validator without compiling its dialect's meta-schema, and checks schemas with it still", () => {
  const validate = compileSchema(codeExecutionInputSchema);
  expect(validate({ code: "return 1" })).toEqual([]);
  expect(validate({ code: "" }).map((problem) => problem.path)).toEqual([["code"]]);
  expect(metaSchemaCompiled()).toBe(false);
  // A meta-schema check compiles it when one is asked for, and still finds what is wrong.
  expect(findSchemaProblems({ type: "object", properties: { n: { type: "numbr" } } })).not.toEqual([]);
  expect(metaSchemaCompiled()).toBe(true);
});
