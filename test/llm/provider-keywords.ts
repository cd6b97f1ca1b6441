/**
 * What each provider documents it refuses in a tool's schema, and a walk over a schema's nodes to find
 * them. docs/llm-providers.md ("What each provider refuses") says the same in prose.
 */

/** The keywords each provider documents as unsupported (or, for Gemini, all it does not list as supported). */
export const UNSUPPORTED_KEYWORDS = {
  /**
   * OpenAI strict mode (Structured Outputs), "Supported schemas" and "Some type-specific keywords are not
   * yet supported": https://platform.openai.com/docs/guides/structured-outputs#supported-schemas —
   * composition other than `anyOf`, and these object, string and array keywords. `default` is not a
   * supported keyword either; references are inlined by us, so none may remain.
   */
  openAiStrict: ["allOf", "oneOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "patternProperties", "unevaluatedProperties", "propertyNames", "minProperties", "maxProperties", "minLength", "maxLength", "unevaluatedItems", "contains", "minContains", "maxContains", "uniqueItems", "prefixItems", "default", "$ref", "$defs", "definitions"],
  /**
   * Gemini `Schema`: https://ai.google.dev/api/caching#Schema lists the only fields it reads; everything
   * else (`$ref`, `$defs`, `additionalProperties`, `oneOf`, `allOf`, `const`, `not`, `$schema`, …) is
   * refused. Checked as an allow-list: `GEMINI_KEYWORDS`.
   */
  gemini: ["$ref", "$defs", "definitions", "$schema", "additionalProperties", "oneOf", "allOf", "const", "not", "examples", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "patternProperties", "prefixItems", "uniqueItems"],
  /**
   * Anthropic `input_schema` is JSON Schema (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#specifying-client-tools)
   * with no keyword documented as refused for tools sent without `strict`; references are inlined by
   * us so each schema stands alone. The same holds for the AI SDK and LangChain, which hand the JSON
   * Schema to the provider package behind them (the AI SDK's Google provider, for one, drops `$ref`:
   * https://ai-sdk.dev/providers/ai-sdk-providers/google-generative-ai#schema-limitations).
   */
  jsonSchema: ["$ref", "$defs", "definitions"],
} as const;

/** Gemini's `Schema` fields (https://ai.google.dev/api/caching#Schema) that a converted schema may use. */
export const GEMINI_KEYWORDS = new Set(["type", "format", "title", "description", "nullable", "enum", "items", "properties", "required", "anyOf", "minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties", "minimum", "maximum", "pattern", "default", "example"]);

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);
const SUBSCHEMA_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"];
const SUBSCHEMAS = ["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties"];
const SUBSCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/** Every `path/keyword` in a schema's nodes (property names are names, not keywords) that is in `refused`. */
export function refusedKeywords(node: unknown, refused: readonly string[], at = ""): string[] {
  if (!isObject(node)) return [];
  const found = Object.keys(node).filter((key) => refused.includes(key)).map((key) => `${at}/${key}`);
  for (const key of SUBSCHEMA_LISTS) if (Array.isArray(node[key])) (node[key] as unknown[]).forEach((child, index) => found.push(...refusedKeywords(child, refused, `${at}/${key}/${index}`)));
  for (const key of SUBSCHEMAS) found.push(...refusedKeywords(node[key], refused, `${at}/${key}`));
  for (const key of SUBSCHEMA_MAPS) if (isObject(node[key])) for (const [name, child] of Object.entries(node[key] as object)) found.push(...refusedKeywords(child, refused, `${at}/${key}/${name}`));
  return found;
}
