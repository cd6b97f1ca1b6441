/**
 * How a `tools/call` answer is checked before the MCP plugin unwraps it. The SDK's
 * `CallToolResultSchema` walks every content block through a zod union (a copy of each, ~2–3 µs for
 * one text block, more in garbage); the usual answer — text blocks and maybe `structuredContent`
 * and `isError` — is checked here by hand, and anything else (images, resources, `_meta`,
 * annotations, a missing `content`) goes to the schema, which also words every error. Both SDK
 * generations take it: v1 calls `safeParse`, v2 the Standard Schema `validate`.
 */
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

/**
 * The SDK's result schema, but `structuredContent` is checked to be an object without a walk: its
 * `z.record` checked and copied every key on the event loop (an answer of 250,000 keys held the host
 * for seconds). The value is checked against the tool's outputSchema afterwards anyway.
 */
export const ToolResultSchema = CallToolResultSchema.extend({
  structuredContent: z.custom<Record<string, unknown>>((value) => value !== null && typeof value === "object" && !Array.isArray(value), "Expected an object").optional(),
});

type ToolResult = z.infer<typeof ToolResultSchema>;

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A text block the schema would pass unchanged: `type` and `text`, nothing it would strip or type. */
function isPlainTextBlock(block: unknown): boolean {
  if (!isPlainObject(block) || block.type !== "text" || typeof block.text !== "string") return false;
  for (const key in block) if (key !== "type" && key !== "text") return false;
  return true;
}

/** Whether the schema would accept `value` as it is (no defaults to fill, nothing to strip). */
export function isPlainToolResult(value: unknown): value is ToolResult {
  if (!isPlainObject(value) || "_meta" in value) return false;
  const { content, structuredContent, isError } = value;
  if (!Array.isArray(content)) return false;
  for (const block of content) if (!isPlainTextBlock(block)) return false;
  return (structuredContent === undefined || isPlainObject(structuredContent)) && (isError === undefined || typeof isError === "boolean");
}

const standard = ToolResultSchema["~standard"];

/**
 * The check to pass to `client.request` for `tools/call` (SDK v1 or v2). Typed as the zod schema it
 * stands for: the SDKs call nothing but `safeParse` and `~standard.validate` on it.
 *
 * @example
 * const result = await client.request({ method: "tools/call", params }, TOOL_RESULT_CHECK);
 */
export const TOOL_RESULT_CHECK = {
  safeParse: (value: unknown) => (isPlainToolResult(value) ? { success: true as const, data: value } : ToolResultSchema.safeParse(value)),
  "~standard": {
    version: 1,
    vendor: "toolexec",
    validate: (value: unknown) => (isPlainToolResult(value) ? { value } : standard.validate(value)),
  },
} as unknown as typeof ToolResultSchema;
