/** The project's store from an option: a Store object as given, a redis:// URL, or the files default. */
import { ToolexecError } from "../errors/toolexec-error.js";
import type { Logger } from "../plugin-contract.js";
import { createFileStore } from "./file-store.js";
import type { Store } from "./store.js";

/** What `createExecutor({ store })` and `serve --store` accept. */
export type StoreOption = Store | string;

/** The store an executor uses, and whether it opened it (then it closes it too). */
export interface OpenedStore {
  store: Store;
  owned: boolean;
}

/**
 * `undefined` or `"files"`: the files store on `root`; `redis://…`/`rediss://…`: Redis (node-redis
 * imported only then); a Store object: used as is (the caller closes it).
 *
 * @example
 * const { store } = await openStore("redis://127.0.0.1:6379/0", "/project", console);
 */
export async function openStore(option: StoreOption | undefined, root: string, logger?: Pick<Logger, "warn" | "info">): Promise<OpenedStore> {
  if (option === undefined || option === "files") return { store: createFileStore(root), owned: true };
  if (typeof option === "string") {
    if (!/^rediss?:\/\//i.test(option)) throw new ToolexecError("INVALID_OPTIONS", `Invalid store ${JSON.stringify(option.replace(/\/\/[^@/]*@/, "//***@"))}: expected "files" or a redis://host:port/db URL`);
    const { createRedisStore } = await import("./redis-store.js");
    return { store: await createRedisStore(option, logger ? { logger } : {}), owned: true };
  }
  return { store: option, owned: false };
}

/** Whether `value` has a Store's methods (for option checks). */
export function isStore(value: unknown): value is Store {
  const store = value as Record<string, unknown> | null;
  return typeof store === "object" && store !== null && ["get", "set", "delete", "list", "increment", "subscribe", "close"].every((name) => typeof store[name] === "function");
}
