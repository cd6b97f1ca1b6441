/**
 * 2025-era served servers share one JSON Schema validator: the SDK v1 Server otherwise builds an
 * ajv with every format per instance, and stateless HTTP builds a server per request. (The v2
 * Server of the 2026 era makes its ajv on first use only, and never uses it here.)
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Executor } from "../../src/index.js";
import { createMcpServer } from "../../src/serve.js";
import { questionForm } from "../../src/serve/client-caller.js";
import { servedSchemaValidator } from "../../src/serve/served-schema-validator.js";
import { servedProject } from "./serve-test-helpers.js";

let executor: Executor;
beforeAll(async () => ({ executor } = await servedProject({ watch: false, mcpConfig: false })));
afterAll(() => executor.close());

/** The validator a server checks elicitation answers with (the SDK keeps it in a private field). */
const validatorOf = (server: object) => Reflect.get(server, "_jsonSchemaValidator");

it("gives every 2025-era server the one validator", () => {
  const first = createMcpServer(executor);
  const second = createMcpServer(executor);
  expect(validatorOf(first.server)).toBe(servedSchemaValidator);
  expect(validatorOf(second.server)).toBe(servedSchemaValidator);
});

it("checks an answer against the form that asked, formats included", () => {
  const choice = servedSchemaValidator.getValidator(questionForm("Which color?", ["red", "blue"]).requestedSchema);
  expect(choice({ answer: "red" })).toEqual({ valid: true, data: { answer: "red" }, errorMessage: undefined });
  expect(choice({ answer: "green" })).toMatchObject({ valid: false, errorMessage: "data/answer must be equal to one of the allowed values" });
  const email = servedSchemaValidator.getValidator({ type: "object", properties: { to: { type: "string", format: "email" } } });
  expect(email({ to: "a@example.com" }).valid).toBe(true);
  expect(email({ to: "not an address" })).toMatchObject({ valid: false, errorMessage: 'data/to must match format "email"' });
});
