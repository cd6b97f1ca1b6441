// @ts-check
/**
 * The sandbox's `tools` object: `tools.<server>.<tool>(args)`. Reading a server or tool that does
 * not exist throws a TypeError naming the closest one, in the exact syntax to write, instead of
 * leaving `undefined` to fail later as "tools.everything.get_sum is not a function" (MCP tool names
 * such as `get-sum` need brackets, which models often miss). The namespaces are Proxies made here,
 * in the runtime, for one run; their traps only read the run's own objects and the catalog's names.
 */

/**
 * Names that read as before (`undefined`), not throw: what `await` (then), JSON (toJSON) and
 * conversions or libraries probe for (Object.prototype's names: the objects have no prototype).
 * @param {string} key
 */
const isProbe = (key) => key === "then" || key === "toJSON" || key in Object.prototype;
/** How many names a message lists when it has no close match. */
const MAX_LISTED = 10;

/** `.name` where JavaScript allows it, else `["name"]`. @param {string} name */
export const propertyAccess = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`);

/** @param {string} name */
const fold = (name) => name.toLowerCase().replace(/[-_.\s]/g, "");

/** @param {string} left @param {string} right @returns {number} */
function editDistance(left, right) {
  /** @type {number[]} */
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row++) {
    const current = [row];
    for (let column = 1; column <= right.length; column++) {
      const substitution = /** @type {number} */ (previous[column - 1]) + (left[row - 1] === right[column - 1] ? 0 : 1);
      current.push(Math.min(/** @type {number} */ (previous[column]) + 1, /** @type {number} */ (current[column - 1]) + 1, substitution));
    }
    previous = current;
  }
  return /** @type {number} */ (previous[right.length]);
}

/**
 * The candidate `name` was most likely meant as: the same but for case and `-_. ` (get_sum →
 * get-sum), else the nearest by edit distance within a third of its length.
 *
 * @param {string} name
 * @param {readonly string[]} candidates
 * @returns {string | undefined}
 */
export function closestName(name, candidates) {
  const folded = fold(name);
  const same = candidates.find((candidate) => fold(candidate) === folded);
  if (same !== undefined) return same;
  let best;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(folded, fold(candidate));
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/**
 * @param {string} path what was read, as code writes it (`tools.everything`)
 * @param {string} kind "server" or "tool"
 * @param {string} key
 * @param {string[]} names
 */
function missing(path, kind, key, names) {
  const hint = closestName(key, names);
  const listed = names.length <= MAX_LISTED ? names.join(", ") : `${names.slice(0, MAX_LISTED).join(", ")}, … ${names.length - MAX_LISTED} more`;
  if (hint !== undefined) return new TypeError(`${path} has no ${kind} ${JSON.stringify(key)}; did you mean ${path}${propertyAccess(hint)}?`);
  const known = names.length === 0 ? "" : ` (${kind === "server" ? "servers" : "its tools"}: ${listed})`;
  return new TypeError(`${path} has no ${kind} ${JSON.stringify(key)}${known}; search_tools("words") finds tools`);
}

/** Every Proxy trap but `get` (an ordinary object's target has no `apply` or `construct`). */
const FORWARDED_TRAPS = /** @type {const} */ (["set", "has", "deleteProperty", "defineProperty", "getOwnPropertyDescriptor", "ownKeys", "getPrototypeOf", "setPrototypeOf", "isExtensible", "preventExtensions"]);

/**
 * An object whose own properties are the only names that read as values; any other string name
 * throws. Its properties are made on its first use, by `fill`: a run pays for the servers and tools
 * it touches, not for the whole catalog. Every trap fills the target first, so nothing can tell it
 * from an object made filled.
 *
 * @param {readonly string[]} names the names `fill` defines, for the error of a missing one
 * @param {(target: Record<string, unknown>) => void} fill
 * @param {string} path
 * @param {"server" | "tool"} kind
 */
function lazyStrict(names, fill, path, kind) {
  /** @type {Record<string, unknown>} */
  const target = Object.create(null);
  let filled = false;
  const ready = () => {
    if (!filled) {
      filled = true;
      fill(target);
    }
    return target;
  };
  /** @type {ProxyHandler<Record<string, unknown>>} */
  const handler = {
    get(_target, key, receiver) {
      const object = ready();
      if (typeof key === "symbol" || Object.hasOwn(object, key) || isProbe(key)) return Reflect.get(object, key, receiver);
      throw missing(path, kind, key, /** @type {string[]} */ (names));
    },
  };
  for (const trap of FORWARDED_TRAPS) {
    handler[trap] = (/** @type {any} */ _target, /** @type {any[]} */ ...rest) => /** @type {any} */ (Reflect[trap])(ready(), ...rest);
  }
  return new Proxy(target, handler);
}

/** Each catalog's tools grouped by server, kept while the runtime holds that catalog. @type {WeakMap<object, { servers: string[], byServer: Map<string, string[]> }>} */
const groupings = new WeakMap();

/** @param {ReadonlyArray<[string, string]>} catalog */
function groupByServer(catalog) {
  let grouped = groupings.get(catalog);
  if (grouped === undefined) {
    /** @type {Map<string, string[]>} */
    const byServer = new Map();
    for (const [server, tool] of catalog) {
      const tools = byServer.get(server);
      if (tools === undefined) byServer.set(server, [tool]);
      else tools.push(tool);
    }
    grouped = { servers: [...byServer.keys()], byServer };
    groupings.set(catalog, grouped);
  }
  return grouped;
}

/**
 * @param {ReadonlyArray<[string, string]>} catalog server and tool of every callable tool (one array per catalog version)
 * @param {(server: string, tool: string) => (args?: unknown) => Promise<unknown>} wrap
 * @returns {Record<string, Record<string, (args?: unknown) => Promise<unknown>>>}
 */
export function createToolNamespace(catalog, wrap) {
  const { servers, byServer } = groupByServer(catalog);
  const fillServers = (/** @type {Record<string, unknown>} */ tools) => {
    for (const [server, names] of byServer) {
      const fillTools = (/** @type {Record<string, unknown>} */ namespace) => {
        for (const tool of names) Object.defineProperty(namespace, tool, { value: wrap(server, tool), enumerable: true });
      };
      Object.defineProperty(tools, server, { value: lazyStrict(names, fillTools, `tools${propertyAccess(server)}`, "tool"), enumerable: true });
    }
  };
  return /** @type {Record<string, Record<string, (args?: unknown) => Promise<unknown>>>} */ (lazyStrict(servers, fillServers, "tools", "server"));
}
