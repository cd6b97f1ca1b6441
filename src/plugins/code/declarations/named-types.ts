/**
 * Named types for recursive `$ref`s: a recursive schema cannot be written inline, so its target gets
 * a name inside one namespace. The namespace keeps schema-made names (`Promise`, `Error`, `Record`)
 * from ever shadowing the globals the declarations use.
 */
import { docComment, indentFollowingLines, typeNameFrom } from "./typescript-text.js";

/** The namespace that holds every named type of a declarations file. */
export const NAMED_TYPES_NAMESPACE = "ToolSchemas";

/** One reserved name; `body` is filled in once its target has been converted. */
interface NamedType {
  root: object;
  pointer: string;
  name: string;
  body: string | undefined;
  documentation: string;
  /** Named types this body mentions outside any object or array: recursion through them is not deferred. */
  unguardedReferences: Set<string>;
}

/**
 * The named types of one declarations file. Names are keyed by (root schema, JSON pointer), so two
 * tools' `#/$defs/node` stay apart. `mark`/`rollback` let a caller discard the names that a too-large
 * conversion made before it tries again with less detail.
 */
export interface NamedTypes {
  /** The reference (`ToolSchemas.TreeNode`) to the type already named for this target, if any. */
  lookup(root: object, pointer: string): string | undefined;
  /** Name this target after `nameHint`; returns the reference and the function that records its body. */
  reserve(root: object, pointer: string, nameHint: string): { reference: string; define(body: string, documentation: string): void };
  /** Record that the body of `from` mentions `to` outside any object or array. */
  noteUnguardedReference(root: object, from: string, to: string): void;
  /** What {@link noteUnguardedReference} recorded for a named type. */
  unguardedReferences(root: object, pointer: string): ReadonlySet<string>;
  /** A position to roll back to. */
  mark(): number;
  /** Forget every name reserved after the mark. */
  rollback(mark: number): void;
  /** Characters of the bodies defined after the mark, to bound a conversion's real size. */
  lengthSince(mark: number): number;
  /** `declare namespace ToolSchemas { ... }`, or "" when nothing was named. */
  render(): string;
}

/**
 * An empty set of named types.
 *
 * @example
 * const named = createNamedTypes();
 * const type = schemaToTypeScript(schema, { namedTypes: named });
 * const text = `${named.render()}declare const value: ${type};`;
 */
export function createNamedTypes(namespace: string = NAMED_TYPES_NAMESPACE): NamedTypes {
  const entries: NamedType[] = [];
  const byRoot = new Map<object, Map<string, NamedType>>();
  const usedNames = new Set<string>();

  const uniqueName = (hint: string): string => {
    const base = typeNameFrom(hint);
    let name = base;
    for (let suffix = 2; usedNames.has(name) || name === namespace; suffix++) name = `${base}${suffix}`;
    return name;
  };

  return {
    lookup(root, pointer) {
      const entry = byRoot.get(root)?.get(pointer);
      return entry === undefined ? undefined : `${namespace}.${entry.name}`;
    },
    reserve(root, pointer, nameHint) {
      const entry: NamedType = { root, pointer, name: uniqueName(nameHint), body: undefined, documentation: "", unguardedReferences: new Set() };
      entries.push(entry);
      usedNames.add(entry.name);
      let forRoot = byRoot.get(root);
      if (!forRoot) byRoot.set(root, (forRoot = new Map()));
      forRoot.set(pointer, entry);
      return {
        reference: `${namespace}.${entry.name}`,
        define(body, documentation) {
          entry.body = body;
          entry.documentation = documentation;
        },
      };
    },
    noteUnguardedReference(root, from, to) {
      byRoot.get(root)?.get(from)?.unguardedReferences.add(to);
    },
    unguardedReferences: (root, pointer) => byRoot.get(root)?.get(pointer)?.unguardedReferences ?? new Set(),
    mark: () => entries.length,
    rollback(mark) {
      for (const entry of entries.splice(mark)) {
        usedNames.delete(entry.name);
        byRoot.get(entry.root)?.delete(entry.pointer);
      }
    },
    lengthSince(mark) {
      return entries.slice(mark).reduce((total, entry) => total + entry.name.length + (entry.body?.length ?? 0) + entry.documentation.length, 0);
    },
    render() {
      if (entries.length === 0) return "";
      const lines = [`/** Types that refer to themselves, named so that they can. */`, `declare namespace ${namespace} {`];
      for (const entry of entries) {
        const comment = docComment(entry.documentation);
        if (comment !== "") lines.push(`  ${indentFollowingLines(comment, "  ")}`);
        lines.push(`  export type ${entry.name} = ${indentFollowingLines(entry.body ?? "unknown", "  ")};`);
      }
      lines.push("}");
      return `${lines.join("\n")}\n`;
    },
  };
}
