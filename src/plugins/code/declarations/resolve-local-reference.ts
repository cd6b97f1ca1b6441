/** Resolves a `$ref` inside the same document (`#`, `#/$defs/node`, `#/definitions/node`, any JSON pointer). */

/** A resolved reference: its normalized JSON pointer (`""` for the whole document) and its target. */
export interface LocalReference {
  pointer: string;
  schema: unknown;
}

/**
 * The target of a same-document reference, or undefined for references to other documents,
 * anchors (`#node`) and pointers that lead nowhere.
 *
 * @example
 * resolveLocalReference({ $defs: { node: { type: "string" } } }, "#/$defs/node");
 * // { pointer: "/$defs/node", schema: { type: "string" } }
 */
export function resolveLocalReference(root: unknown, reference: string): LocalReference | undefined {
  if (!reference.startsWith("#")) return undefined;
  let pointer: string;
  try {
    // A reference is a URI fragment: `%25` and friends are percent-encoded.
    pointer = decodeURIComponent(reference.slice(1));
  } catch {
    return undefined;
  }
  if (pointer !== "" && !pointer.startsWith("/")) return undefined;
  let current = root;
  for (const encoded of pointer === "" ? [] : pointer.slice(1).split("/")) {
    const segment = encoded.replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return { pointer, schema: current };
}
