/**
 * The content blocks of a tool's result (MCP images, audio, resource links, embedded resources) as
 * sandboxed code gets them in `call_tool`'s envelope. Only results with more than text carry them:
 * for text the envelope's `value` already says everything, and doubling every answer would cost
 * each call. A binary payload over {@link MAX_CODE_BINARY_CHARS} stays out of the runtime, so a
 * program that fans out over screenshots does not fill its memory with base64 it cannot look at.
 */

/** Longest base64 `data` (image, audio) or `blob` (embedded resource) passed to code, in characters. */
export const MAX_CODE_BINARY_CHARS = 1_048_576;

type Block = Record<string, unknown>;

const isBlock = (part: unknown): part is Block => typeof part === "object" && part !== null && !Array.isArray(part);

const omission = (field: string, length: number) => `${field}: ${length} characters of base64, over code mode's limit of ${MAX_CODE_BINARY_CHARS} per block`;

/** One block with an oversized payload left out and `omitted` saying which. */
function boundBlock(part: unknown): unknown {
  if (!isBlock(part)) return part;
  if (typeof part.data === "string" && part.data.length > MAX_CODE_BINARY_CHARS) {
    const { data, ...rest } = part;
    return { ...rest, omitted: omission("data", (data as string).length) };
  }
  const resource = part.resource;
  if (isBlock(resource) && typeof resource.blob === "string" && resource.blob.length > MAX_CODE_BINARY_CHARS) {
    const { blob, ...rest } = resource;
    return { ...part, resource: rest, omitted: omission("resource.blob", (blob as string).length) };
  }
  return part;
}

/**
 * The blocks code gets, or `undefined` when the result has none besides text.
 *
 * @example
 * contentForCode([{ type: "text", text: "hi" }]); // undefined
 * contentForCode([{ type: "image", data: "iVBOR…", mimeType: "image/png" }]); // the same block (under the bound)
 */
export function contentForCode(content: unknown): unknown[] | undefined {
  if (!Array.isArray(content) || content.every((part) => isBlock(part) && part.type === "text")) return undefined;
  return content.map(boundBlock);
}
