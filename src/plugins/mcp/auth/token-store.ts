/**
 * Where OAuth state lives between runs: one record per server (its URL and client), behind a
 * three-method store a host can replace. The default keeps one JSON file per server under the
 * user's config folder, 0600 in a 0700 folder, written atomically; never in the project.
 */
import { createHash } from "node:crypto";
import { chmod, mkdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { writeFileAtomic } from "../../../core/files/atomic-write.js";
import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

/** What toolexec remembers of one server's authorization. */
export interface StoredAuthorization {
  /** The MCP server's URL, for people reading the file. */
  serverUrl: string;
  /** A client registered dynamically (or by client ID metadata document) with the authorization server. */
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** The scope a server last asked for (`WWW-Authenticate`, step-up): the next login asks for it. */
  scope?: string;
  /** Where discovery led (the authorization server, its metadata): a login finished later, or in another process, goes to the same one. */
  discovery?: OAuthDiscoveryState;
}

/**
 * A token store: three methods, keyed by an opaque string toolexec derives from the server's URL
 * and client. Values hold secrets: keep them out of logs and out of the project.
 *
 * @example
 * const memory = new Map<string, StoredAuthorization>();
 * const store: OAuthTokenStore = {
 *   load: async (key) => memory.get(key),
 *   save: async (key, value) => void memory.set(key, value),
 *   remove: async (key) => void memory.delete(key),
 * };
 */
export interface OAuthTokenStore {
  load(key: string): Promise<StoredAuthorization | undefined>;
  save(key: string, value: StoredAuthorization): Promise<void>;
  remove(key: string): Promise<void>;
}

/**
 * `$XDG_CONFIG_HOME/toolexec/oauth`, else `~/.config/toolexec/oauth`.
 *
 * @example
 * defaultTokenDirectory({ XDG_CONFIG_HOME: "/tmp/config" }); // "/tmp/config/toolexec/oauth"
 */
export function defaultTokenDirectory(environment: Record<string, string | undefined> = process.env): string {
  const base = environment.XDG_CONFIG_HOME && path.isAbsolute(environment.XDG_CONFIG_HOME) ? environment.XDG_CONFIG_HOME : path.join(os.homedir(), ".config");
  return path.join(base, "toolexec", "oauth");
}

const fileName = (key: string) => `${createHash("sha256").update(key).digest("hex").slice(0, 32)}.json`;

/**
 * The default store: one 0600 file per key in a 0700 folder.
 *
 * @example
 * const store = createFileTokenStore(defaultTokenDirectory());
 * await store.save(key, { serverUrl, tokens });
 */
export function createFileTokenStore(directory: string = defaultTokenDirectory()): OAuthTokenStore {
  const ensureDirectory = async () => {
    await mkdir(directory, { recursive: true, mode: 0o700 });
    // mkdir's mode is masked and leaves an existing folder as it was.
    await chmod(directory, 0o700);
  };
  return {
    async load(key) {
      let text: string;
      try {
        text = await readFile(path.join(directory, fileName(key)), "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
      try {
        return JSON.parse(text) as StoredAuthorization;
      } catch {
        // A damaged file is a logged-out server, not a crash.
        return undefined;
      }
    },
    async save(key, value) {
      await ensureDirectory();
      await writeFileAtomic(path.join(directory, fileName(key)), JSON.stringify(value), 0o600);
    },
    async remove(key) {
      await rm(path.join(directory, fileName(key)), { force: true });
    },
  };
}
