/**
 * JSON Schema → TypeScript type text, small and forgiving: a schema it does not understand becomes
 * `unknown`, never an error, because the text is documentation for a model, not a validator (the
 * executor validates every call against the real schema).
 */
import type { NamedTypes } from "./named-types.js";
import { isSchemaObject, schemaDocumentation } from "./schema-hints.js";
import { resolveLocalReference, type LocalReference } from "./resolve-local-reference.js";
import { atom, intersection, isKeyword, literalUnion, NEVER, parenthesize, Precedence, union, UNKNOWN, type Rendered } from "./rendered-type.js";
import { docComment, indentFollowingLines, propertyKey } from "./typescript-text.js";

/** Nesting deeper than this becomes `unknown`: deep types cost much context and help little. */
export const DEFAULT_MAX_SCHEMA_DEPTH = 8;

/** Object types up to this length without doc comments stay on one line. */
const ONE_LINE_OBJECT_LENGTH = 80;

/** A property's doc comment follows a chain of `$ref`s this far, so a reference loop cannot hang it. */
const MAX_REFERENCE_HOPS = 5;

export interface SchemaToTypeScriptOptions {
  /** Where recursive `$ref` targets get their names; without it a recursive reference is `unknown`. */
  namedTypes?: NamedTypes;
  /** Default {@link DEFAULT_MAX_SCHEMA_DEPTH}. */
  maxDepth?: number;
  /** Doc comments from descriptions and constraint hints on properties; default true. */
  documentation?: boolean;
  /** Name for the whole schema when it refers to itself (`$ref: "#"`); default `Root`. */
  rootName?: string;
}

/**
 * The TypeScript type a JSON Schema describes, as source text.
 *
 * @example
 * schemaToTypeScript({ type: "object", properties: { id: { type: ["string", "null"] } }, required: ["id"] });
 * // "{ id: string | null }"
 */
export function schemaToTypeScript(schema: unknown, options: SchemaToTypeScriptOptions = {}): string {
  const settings: Settings = {
    namedTypes: options.namedTypes,
    maxDepth: options.maxDepth ?? DEFAULT_MAX_SCHEMA_DEPTH,
    documentation: options.documentation ?? true,
    rootName: options.rootName ?? "Root",
  };
  const type = convert(schema, { root: schema, stack: new Set([""]), unguarded: new Set(), inTuple: false, depth: 0, settings }).text;
  // A schema that refers to itself was named while converting it: the name says the same, shorter.
  return (isSchemaObject(schema) && settings.namedTypes?.lookup(schema, "")) || type;
}

interface Settings {
  namedTypes: NamedTypes | undefined;
  maxDepth: number;
  documentation: boolean;
  rootName: string;
}

interface Context {
  /** The document `$ref`s resolve against. */
  root: unknown;
  /** Pointers of the references being expanded right now: meeting one again means recursion. */
  stack: ReadonlySet<string>;
  /**
   * Named types whose body is being written and from whose start no object or array has been
   * entered. TypeScript accepts recursion only through objects and arrays (`type A = A | string` is
   * an error), so a reference to one of these becomes `unknown`.
   */
  unguarded: ReadonlySet<string>;
  /**
   * Inside a tuple since the last object. TypeScript resolves tuple elements eagerly, arrays in them
   * included (`type A = [A[]?] | number` is an error), so there only an object defers recursion.
   */
  inTuple: boolean;
  depth: number;
  settings: Settings;
}

const deeper = (context: Context): Context => ({ ...context, depth: context.depth + 1 });
/** Into an object's property, where TypeScript always defers recursion. */
const intoObject = (context: Context): Context => ({ ...context, depth: context.depth + 1, unguarded: new Set(), inTuple: false });
/** Into an array's items, where TypeScript defers recursion unless a tuple encloses the array. */
const intoArray = (context: Context): Context => (context.inTuple ? deeper(context) : { ...context, depth: context.depth + 1, unguarded: new Set() });
/** Into a tuple's elements, where TypeScript does not defer recursion. */
const intoTuple = (context: Context): Context => ({ ...context, depth: context.depth + 1, inTuple: true });

function convert(schema: unknown, context: Context): Rendered {
  if (schema === true || schema === undefined) return UNKNOWN;
  if (schema === false) return NEVER;
  if (!isSchemaObject(schema) || context.depth > context.settings.maxDepth) return UNKNOWN;
  if (typeof schema.$ref === "string") return convertReference(schema.$ref, context);
  if ("const" in schema) return literalUnion([schema.const]);
  if (Array.isArray(schema.enum)) return literalUnion(schema.enum);

  const base = baseType(schema, context);
  const alternatives = ["oneOf", "anyOf"]
    .map((keyword) => schema[keyword])
    .filter(Array.isArray)
    .map((variants) => union(variants.map((variant) => convert(variant, deeper(context)))));
  const required = Array.isArray(schema.allOf) ? schema.allOf.map((part) => convert(part, deeper(context))) : [];
  const composed = [...alternatives, ...required];
  const keepBase = base !== undefined && !(isKeyword(base) && composed.length > 0 && composed.every((part) => part.literalsOnly));
  const type = intersection([...(keepBase ? [base] : []), ...composed]);
  // OpenAPI 3.0 marks nullable types this way; MCP servers generated from OpenAPI still do.
  return schema.nullable === true ? union([type, atom("null")]) : type;
}

function convertReference(reference: string, context: Context): Rendered {
  const target = resolveLocalReference(context.root, reference);
  if (target === undefined) return UNKNOWN;
  if (context.unguarded.has(target.pointer)) return UNKNOWN;
  const named = usableName(target.pointer, context);
  if (named !== undefined) return named;
  if (context.stack.has(target.pointer)) {
    const alreadyNamed = context.settings.namedTypes?.lookup(context.root as object, target.pointer) !== undefined;
    return alreadyNamed ? UNKNOWN : nameRecursiveTarget(target, context);
  }
  const expanded = convert(target.schema, { ...deeper(context), stack: new Set([...context.stack, target.pointer]) });
  // Expanding the target may have named it (it refers to itself): then the name is the shorter text.
  return usableName(target.pointer, context) ?? expanded;
}

/**
 * The target's name, if it has one that may stand here: one whose body does not lead back, outside
 * any object or array, to a named type being written at this position (that would be a cycle
 * TypeScript rejects). Using it records the reference for later checks of the same kind.
 */
function usableName(pointer: string, context: Context): Rendered | undefined {
  const { namedTypes } = context.settings;
  const root = context.root as object;
  const reference = namedTypes?.lookup(root, pointer);
  if (namedTypes === undefined || reference === undefined) return undefined;
  const seen = new Set<string>();
  const pending = [pointer];
  while (pending.length > 0) {
    const current = pending.pop()!;
    if (context.unguarded.has(current)) return undefined;
    if (seen.has(current)) continue;
    seen.add(current);
    pending.push(...namedTypes.unguardedReferences(root, current));
  }
  for (const writing of context.unguarded) namedTypes.noteUnguardedReference(root, writing, pointer);
  return atom(reference);
}

function nameRecursiveTarget(target: LocalReference, context: Context): Rendered {
  const { namedTypes, documentation, rootName } = context.settings;
  if (namedTypes === undefined) return UNKNOWN;
  const hint = target.pointer === "" ? rootName : (target.pointer.split("/").pop() ?? rootName);
  const { reference, define } = namedTypes.reserve(context.root as object, target.pointer, hint);
  // The body keeps `inTuple` from where the reference stands: an array in it may not defer a cycle back there.
  const body = convert(target.schema, { ...context, depth: 0, stack: new Set([target.pointer]), unguarded: new Set([...context.unguarded, target.pointer]) });
  const description = documentation && isSchemaObject(target.schema) && typeof target.schema.description === "string" ? target.schema.description : "";
  define(body.text, description);
  for (const writing of context.unguarded) namedTypes.noteUnguardedReference(context.root as object, writing, target.pointer);
  return atom(reference);
}

function baseType(schema: Record<string, unknown>, context: Context): Rendered | undefined {
  const declared = Array.isArray(schema.type) ? schema.type : typeof schema.type === "string" ? [schema.type] : inferTypes(schema);
  if (declared.length === 0) return undefined;
  return union(declared.map((type) => typeNamed(type, schema, context)));
}

/** Without `type`, the keywords present tell what the schema constrains. */
function inferTypes(schema: Record<string, unknown>): string[] {
  if (["properties", "additionalProperties", "patternProperties", "required"].some((keyword) => keyword in schema)) return ["object"];
  if (["items", "prefixItems"].some((keyword) => keyword in schema)) return ["array"];
  return [];
}

function typeNamed(type: unknown, schema: Record<string, unknown>, context: Context): Rendered {
  switch (type) {
    case "string":
      return atom("string");
    case "number":
    case "integer":
      return atom("number");
    case "boolean":
      return atom("boolean");
    case "null":
      return atom("null");
    case "object":
      return objectType(schema, context);
    case "array":
      return arrayType(schema, context);
    default:
      return UNKNOWN;
  }
}

function objectType(schema: Record<string, unknown>, context: Context): Rendered {
  const properties = isSchemaObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : []);
  const members: string[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const type = convert(property, intoObject(context)).text;
    members.push(`${memberComment(property, context)}${propertyKey(name)}${required.has(name) ? "" : "?"}: ${type};`);
  }
  const indexTypes: Rendered[] = [];
  const additional = schema.additionalProperties;
  if (additional === true || isSchemaObject(additional)) indexTypes.push(convert(additional, intoObject(context)));
  if (isSchemaObject(schema.patternProperties)) {
    for (const pattern of Object.values(schema.patternProperties)) indexTypes.push(convert(pattern, intoObject(context)));
  }
  // Required names the schema does not describe still exist: say so, typed like any other key.
  const otherKeyType = indexTypes.length > 0 ? union(indexTypes).text : "unknown";
  for (const name of required) if (!Object.hasOwn(properties, name)) members.push(`${propertyKey(name)}: ${otherKeyType};`);
  const open = additional === undefined && indexTypes.length === 0 && members.length === 0;
  if (indexTypes.length > 0 || open) members.push(indexSignature(indexTypes.length > 0 ? union(indexTypes) : UNKNOWN, members.length > 0));
  return atom(objectLiteral(members));
}

/**
 * `[key: string]: T`. Beside named properties TypeScript needs every property to fit `T`, which a
 * schema does not promise, so the signature is `unknown` there and `T` goes into its comment.
 */
function indexSignature(type: Rendered, besideProperties: boolean): string {
  if (!besideProperties || type.text === "unknown") return `[key: string]: ${type.text};`;
  const comment = type.text.includes("\n") ? "" : `${docComment(`Any other key holds: ${type.text}`)}\n`;
  return `${comment}[key: string]: unknown;`;
}

function memberComment(property: unknown, context: Context): string {
  if (!context.settings.documentation) return "";
  let documentation = schemaDocumentation(property);
  // A property that is only a `$ref` documents itself through its target, possibly a few hops away.
  let target = property;
  for (let hop = 0; documentation === "" && hop < MAX_REFERENCE_HOPS && isSchemaObject(target) && typeof target.$ref === "string"; hop++) {
    target = resolveLocalReference(context.root, target.$ref)?.schema;
    documentation = schemaDocumentation(target);
  }
  const comment = docComment(documentation);
  return comment === "" ? "" : `${comment}\n`;
}

function objectLiteral(members: string[]): string {
  if (members.length === 0) return "{}";
  const oneLine = `{ ${members.map((member) => member.replace(/;$/, "")).join("; ")} }`;
  if (!members.some((member) => member.includes("\n")) && oneLine.length <= ONE_LINE_OBJECT_LENGTH) return oneLine;
  return `{\n${members.map((member) => `  ${indentFollowingLines(member, "  ")}`).join("\n")}\n}`;
}

function arrayType(schema: Record<string, unknown>, context: Context): Rendered {
  // Draft 2020-12 spells tuples `prefixItems` + `items`; drafts up to 2019-09 `items: [...]` + `additionalItems`.
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined;
  if (prefix === undefined) {
    if (schema.items === false) return atom("[]");
    return atom(`${parenthesize(convert(schema.items, intoArray(context)), Precedence.Atom)}[]`);
  }
  const rest = Array.isArray(schema.prefixItems) ? schema.items : schema.additionalItems;
  const minItems = typeof schema.minItems === "number" ? schema.minItems : 0;
  const closed = rest === false || (typeof schema.maxItems === "number" && schema.maxItems <= prefix.length);
  const elements = prefix.map((item, index) => {
    const element = convert(item, intoTuple(context));
    return index < minItems ? element.text : `${parenthesize(element, Precedence.Atom)}?`;
  });
  if (!closed) elements.push(`...${parenthesize(convert(rest, intoTuple(context)), Precedence.Atom)}[]`);
  return atom(`[${elements.join(", ")}]`);
}
