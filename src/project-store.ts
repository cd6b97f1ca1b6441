/**
 * The executor's store (DESIGN §17) and what a shared one changes: with Redis, the project's shared
 * files (tools.json and tools/, saved tools, the trust lock) are synced through it, OAuth tokens and
 * the servers added at run time live in it sealed, and it guards the project's write queue: every
 * write of those files, through any door (an executor method, code mode's save_tool, a plugin's API),
 * first checks the store is reachable (`SERVICE_UNAVAILABLE` before anything is written) and resolves
 * only once the write is in it. The files store changes nothing: it is the project's own files.
 */
import path from "node:path";
import type { ResolvedExecutorOptions } from "./core/executor/executor-options.js";
import { openStore, type StoreOption } from "./core/store/open-store.js";
import { guardProjectWrites } from "./core/files/write-queue.js";
import { startProjectFileSync, type ProjectFileSync } from "./core/store/project-file-sync.js";
import type { Store } from "./core/store/store.js";
import type { Executor } from "./executor.js";
import { SAVED_TOOLS_FOLDER } from "./plugins/code/saved/saved-tool-store.js";
import { createStoreTokenStore } from "./plugins/mcp/auth/store-token-store.js";
import type { OAuthTokenStore } from "./plugins/mcp/auth/token-store.js";
import { createRuntimeServerStore, type RuntimeServerStore } from "./plugins/mcp/runtime-server-store.js";
import { TRUST_LOCK_FILE } from "./plugins/mcp/trust/trust-lock-path.js";

/** The trust lock's key: probed before writes when the executor runs without tools.json. */
const TRUST_LOCK_KEY = TRUST_LOCK_FILE.split(path.sep).join("/");

export interface ProjectStore {
  store: Store;
  /** For the MCP plugin when the store is shared and the host named none. */
  tokenStore: OAuthTokenStore | undefined;
  /** For the MCP plugin when the store is shared: servers added at run time, for every replica. */
  runtimeServers: RuntimeServerStore | undefined;
  /** Close with the executor; reload it when another replica's write arrives. */
  attach(executor: Executor): void;
  close(): Promise<void>;
}

/** Open the store of `option` and, when it is shared, sync the project's files through it (before the executor reads them). */
export async function openProjectStore(option: StoreOption | undefined, resolved: ResolvedExecutorOptions): Promise<ProjectStore> {
  const { store, owned } = await openStore(option, resolved.root, resolved.logger);
  let executor: Executor | undefined;
  let sync: ProjectFileSync | undefined;
  const toolsConfig = toolsConfigKey(resolved);
  if (store.driver !== "files") {
    const keys = [...(toolsConfig === undefined ? [] : [toolsConfig, "tools/"]), `${SAVED_TOOLS_FOLDER}/`, TRUST_LOCK_KEY];
    sync = await startProjectFileSync({
      root: resolved.root,
      shared: store,
      keys,
      logger: resolved.logger,
      // tools.json and scripts reload at once; saved tools and the trust lock have their own watchers.
      onApplied: (applied) => {
        if (applied.some((key) => key === toolsConfig || key.startsWith("tools/"))) void executor?.reload().catch(() => undefined);
      },
    }).catch(async (error: unknown) => {
      if (owned) await store.close();
      throw error;
    });
  }
  // The project's one write queue checks the store before each write and resolves once it holds it.
  const probeKey = toolsConfig ?? TRUST_LOCK_KEY;
  const unguard = sync ? guardProjectWrites(resolved.root, { before: async () => void (await store.get(probeKey)), after: sync.syncAll }) : undefined;
  const close = async () => {
    unguard?.();
    await sync?.close();
    if (owned) await store.close();
  };
  return {
    store,
    tokenStore: store.driver === "files" ? undefined : createStoreTokenStore(store),
    runtimeServers: store.driver === "files" ? undefined : createRuntimeServerStore(store),
    attach(attached) {
      executor = attached;
      const closeExecutor = attached.close.bind(attached);
      attached.close = async () => {
        await closeExecutor();
        await close();
      };
    },
    close,
  };
}

/** tools.json's key: its path under the root; none when the executor runs without it or it lies outside the project. */
function toolsConfigKey(resolved: ResolvedExecutorOptions): string | undefined {
  if (resolved.toolsConfig === false) return undefined;
  const relative = path.relative(resolved.root, path.resolve(resolved.root, resolved.toolsConfig));
  if (relative.startsWith("..") || path.isAbsolute(relative)) {
    resolved.logger.warn(`${resolved.toolsConfig} is outside the project: it is not shared through the store`);
    return undefined;
  }
  return relative.split(path.sep).join("/");
}
