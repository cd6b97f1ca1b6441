/**
 * One JSON Schema validator for every 2025-era served MCP server. Unless given one, the SDK v1 `Server`
 * builds its own ajv with every format at construction, ~0.2 ms of CPU and much garbage each time,
 * and stateless HTTP builds a server per request. The validator only checks an elicitation's answer
 * against the form that asked (`elicitInput`), so ajv is made at the first such check, and a form's
 * compiled check is not kept: forms are made per question, so a kept one would only pile up.
 */
import { createRequire } from "node:module";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";

const require = createRequire(import.meta.url);

function createAjvValidator() {
  // ajv is CommonJS; required as the SDK configures it when it makes its own.
  const Ajv = (require("ajv") as typeof import("ajv")).default;
  const addFormats = (require("ajv-formats") as typeof import("ajv-formats")).default;
  const ajv = new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true });
  addFormats(ajv);
  return { ajv, validator: new AjvJsonSchemaValidator(ajv as ConstructorParameters<typeof AjvJsonSchemaValidator>[0]) };
}

let shared: ReturnType<typeof createAjvValidator> | undefined;

/**
 * @example
 * new Server(info, { capabilities, jsonSchemaValidator: servedSchemaValidator });
 */
export const servedSchemaValidator: jsonSchemaValidator = {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    shared ??= createAjvValidator();
    const check = shared.validator.getValidator<T>(schema);
    shared.ajv.removeSchema(schema as object);
    return check;
  },
};
