/**
 * The tool lists of lazy stdio servers, kept from their last run under the project's
 * `.toolexec/cache/mcp-tools/`, so the executor lists their tools without starting them. A file is
 * named by a hash of what starts the server (command, args, env, cwd): an edit of any of them is a
 * new server, with no list until it ran. A file holds the server's own listing (names, descriptions,
 * schemas, annotations), never the command, its environment or anything else from mcp.json.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { writeFileAtomic } from "../../core/files/atomic-write.js";
import type { Logger } from "../../core/plugin-contract.js";
import type { StdioServerEntry } from "./config/resolve-mcp-server.js";

/** Where the lists live, relative to the project root. */
export const TOOL_LIST_CACHE_FOLDER = path.join(".toolexec", "cache", "mcp-tools");
/** Bumped when the file's shape changes: an older file is then ignored. */
const CACHE_VERSION = 1;

export interface ToolListCache {
  /** The listing `entry`'s server gave on its last run, or undefined (never ran, edited since, unreadable). */
  read(entry: StdioServerEntry): Promise<Tool[] | undefined>;
  /** Keep `tools` as `entry`'s listing; a failed write is a warning, never a fault of the server. */
  write(entry: StdioServerEntry, tools: Tool[]): Promise<void>;
  /** Resolves once every write begun so far ended (the executor closes). */
  settled(): Promise<void>;
}

/**
 * The file name of `entry`'s list: a SHA-256 of what starts it, so no value of the entry can be read
 * back from it.
 *
 * @example
 * cacheKeyOf({ command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"], env: {}, cwd: "/project" }); // "3f2a…" (64 hex digits)
 */
export function cacheKeyOf(entry: Pick<StdioServerEntry, "command" | "args" | "env" | "cwd">): string {
  const env = Object.keys(entry.env).sort().map((key) => [key, entry.env[key]]);
  return createHash("sha256").update(JSON.stringify([entry.command, entry.args, env, entry.cwd])).digest("hex");
}

const isTool = (value: unknown): value is Tool => {
  const tool = value as Record<string, unknown> | null;
  return typeof tool === "object" && tool !== null && typeof tool.name === "string" && typeof tool.inputSchema === "object" && tool.inputSchema !== null;
};

export function createToolListCache(root: string, logger: Logger): ToolListCache {
  const folder = path.join(root, TOOL_LIST_CACHE_FOLDER);
  const fileOf = (entry: StdioServerEntry) => path.join(folder, `${cacheKeyOf(entry)}.json`);
  const pending = new Set<Promise<void>>();
  const save = async (entry: StdioServerEntry, tools: Tool[]) => {
    try {
      await mkdir(folder, { recursive: true });
      await writeFileAtomic(fileOf(entry), `${JSON.stringify({ version: CACHE_VERSION, savedAt: new Date().toISOString(), tools })}\n`);
    } catch (error) {
      logger.warn(`MCP server "${entry.name}": keeping its tool list for lazy starts failed: ${(error as Error)?.message ?? String(error)}`);
    }
  };
  return {
    async read(entry) {
      let text: string;
      try {
        text = await readFile(fileOf(entry), "utf8");
      } catch {
        return undefined;
      }
      try {
        const parsed = JSON.parse(text) as { version?: unknown; tools?: unknown };
        if (parsed.version === CACHE_VERSION && Array.isArray(parsed.tools) && parsed.tools.every(isTool)) return parsed.tools;
      } catch {
        // An unreadable list is no list: the server is started to list its tools again.
      }
      logger.debug(`MCP server "${entry.name}": its cached tool list is unreadable; it starts to list its tools`);
      return undefined;
    },
    write(entry, tools) {
      const written = save(entry, tools).finally(() => pending.delete(written));
      pending.add(written);
      return written;
    },
    async settled() {
      await Promise.all([...pending]);
    },
  };
}
