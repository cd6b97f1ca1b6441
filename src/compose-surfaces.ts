/**
 * Builds one object out of several surfaces — the core executor's, and the APIs of the plugins that
 * run under it — without writing each member out by hand, and with the compiler checking that every
 * member of each API is there.
 */

/** Whether a method answers synchronously or with a promise: the table `forwardMethods` is given. */
export type CallStyles<Api> = {
  [Name in keyof Api]: Api[Name] extends (...args: never[]) => Promise<unknown> ? "async" : "sync";
};

type UnionToIntersection<Union> = (Union extends unknown ? (part: Union) => void : never) extends (part: infer Intersection) => void ? Intersection : never;

/**
 * Methods that look their API up (`lookup()`) on every call, so they follow a plugin that restarts
 * on reload, and fail as the API's own methods would when the lookup throws (after `close()`): a
 * synchronous method throws, an asynchronous one rejects. `styles` names each method, and the
 * compiler holds it to the API's type: a missing method, an extra one or a wrong style is an error.
 *
 * @example
 * const servers = forwardMethods(() => core.pluginApi(mcp)!, { servers: "sync", addServer: "async" });
 */
export function forwardMethods<Api extends object, Name extends keyof Api>(lookup: () => Api, styles: Pick<CallStyles<Api>, Name>): Pick<Api, Name> {
  const methods: Record<string, unknown> = {};
  for (const [name, style] of Object.entries(styles) as Array<[string, "sync" | "async"]>) {
    const call = (...args: unknown[]): unknown => (lookup() as Record<string, (...args: unknown[]) => unknown>)[name]!(...args);
    methods[name] = style === "async" ? async (...args: unknown[]) => call(...args) : call;
  }
  return methods as Pick<Api, Name>;
}

/**
 * One object with every member of every part, each part's getters kept as getters (the core's
 * `warnings` follows reloads). Plain values other than functions (the core's `root`) stay read-only,
 * as the types say. Two parts offering one name is a programming error, refused at once.
 */
export function composeSurfaces<Parts extends object[]>(...parts: Parts): UnionToIntersection<Parts[number]> {
  const composed = {};
  for (const part of parts) {
    const descriptors = Object.getOwnPropertyDescriptors(part);
    for (const [name, descriptor] of Object.entries(descriptors)) {
      if (Object.hasOwn(composed, name)) throw new Error(`Two surfaces offer "${name}"`);
      const readOnly = "value" in descriptor && typeof descriptor.value !== "function";
      Object.defineProperty(composed, name, readOnly ? { ...descriptor, writable: false } : descriptor);
    }
  }
  return composed as UnionToIntersection<Parts[number]>;
}
