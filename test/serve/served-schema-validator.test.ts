/**
 * Served servers share one JSON Schema validator: the SDK's Server (v1 and v2) otherwise builds an
 * ajv with every format per instance, and stateless HTTP and the 2026 era build a server per request.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Executor } from "../../src/index.js";
import { createMcpServer } from "../../src/serve.js";
import { questionForm } from "../../src/serve/client-caller.js";
import { createModernServer, humanInputCodec } from "../../src/serve/era-2026/modern-server.js";
import { servedSchemaValidator } from "../../src/serve/served-schema-validator.js";
import { servedProject } from "./serve-test-helpers.js";

let executor: Executor;
beforeAll(async () => ({ executor } = await servedProject({ watch: false, mcpConfig: false })));
afterAll(() => executor.close());

/** The validator a server checks elicitation answers with (the SDK keeps it in a private field). */
const validatorOf = (server: object) => Reflect.get(server, "_jsonSchemaValidator");

it("gives every 2025 and 2026 server the one validator", () => {
  const first = createMcpServer(executor);
  const second = createMcpServer(executor);
  const modern = createModernServer(executor, { name: "toolexec", version: "0", codec: humanInputCodec("k".repeat(32)) });
  expect(validatorOf(first.server)).toBe(servedSchemaValidator);
  expect(validatorOf(second.server)).toBe(servedSchemaValidator);
  expect(validatorOf(modern)).toBe(servedSchemaValidator);
});

it("checks an answer against the form that asked, formats included", () => {
  const choice = servedSchemaValidator.getValidator(questionForm("Which color?", ["red", "blue"]).requestedSchema);
  expect(choice({ answer: "red" })).toEqual({ valid: true, data: { answer: "red" }, errorMessage: undefined });
  expect(choice({ answer: "green" })).toMatchObject({ valid: false, errorMessage: "data/answer must be equal to one of the allowed values" });
  const email = servedSchemaValidator.getValidator({ type: "object", properties: { to: { type: "string", format: "email" } } });
  expect(email({ to: "a@example.com" }).valid).toBe(true);
  expect(email({ to: "not an address" })).toMatchObject({ valid: false, errorMessage: 'data/to must match format "email"' });
});
