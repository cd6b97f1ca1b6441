/**
 * `.toolexec/tools.lock.json`: the approved tools of each server, meant to be committed. Written
 * diff-friendly (sorted keys, two-space indent, one entry per tool, no timestamps) and atomically
 * (a temp file in the same folder, fsync, rename), one write at a time.
 */
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { writeFileAtomic } from "../../../core/files/atomic-write.js";
import { enqueueProjectWrite } from "../../../core/files/write-queue.js";
import { sortKeys } from "./canonical-json.js";
import type { LockedTool } from "./tool-fingerprint.js";

import { TRUST_LOCK_FILE } from "./trust-lock-path.js";

export { TRUST_LOCK_FILE };
const TRUST_LOCK_VERSION = 1;

export interface LockedServer {
  /** false: revoked, the whole server is held until approved again. */
  approved: boolean;
  /** By the server's own tool name. */
  tools: Map<string, LockedTool>;
}

/** The lock in memory: servers by name (Maps, so no name can reach a prototype). */
export type TrustLock = Map<string, LockedServer>;

const hash = z.string().regex(/^sha256-[0-9a-f]{64}$/);
const lockSchema = z.strictObject({
  version: z.literal(TRUST_LOCK_VERSION),
  servers: z.record(
    z.string(),
    z.strictObject({
      approved: z.boolean(),
      tools: z.record(z.string(), z.strictObject({ fingerprint: hash, description: z.string(), inputSchema: hash, outputSchema: hash.optional(), annotations: hash.optional() })),
    }),
  ),
});


export type ReadLockResult = { ok: true; lock: TrustLock; exists: boolean } | { ok: false; message: string };

/** Read the lock file under `root`; a missing file is an empty lock, a damaged one a clear message. */
export async function readTrustLock(root: string): Promise<ReadLockResult> {
  const file = path.join(root, TRUST_LOCK_FILE);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { ok: true, lock: new Map(), exists: false };
    return { ok: false, message: `Cannot read ${file}: ${(error as Error).message}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `${file} is not valid JSON (${(error as Error).message}); fix it or delete it and approve the servers again` };
  }
  const parsed = lockSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, message: `${file}: ${issue.path.join(".") || "(top level)"}: ${issue.message}; fix it or delete it and approve the servers again` };
  }
  // Built from the parsed text itself, whose keys are own data properties whatever they spell.
  const servers = (value as { servers: Record<string, { approved: boolean; tools: Record<string, LockedTool> }> }).servers;
  const lock: TrustLock = new Map(Object.entries(servers).map(([name, server]) => [name, { approved: server.approved, tools: new Map(Object.entries(server.tools)) }]));
  return { ok: true, lock, exists: true };
}

/** The text of the lock file for `lock`. */
export function formatTrustLock(lock: TrustLock): string {
  const servers = Object.fromEntries([...lock].map(([name, server]) => [name, { approved: server.approved, tools: Object.fromEntries(server.tools) }]));
  return `${JSON.stringify(sortKeys({ version: TRUST_LOCK_VERSION, servers }), null, 2)}\n`;
}

/** Write `lock` under `root` atomically (temp file, fsync, rename over the old one), in the project's write queue. */
export async function writeTrustLock(root: string, lock: TrustLock): Promise<void> {
  const file = path.join(root, TRUST_LOCK_FILE);
  const text = formatTrustLock(lock);
  await enqueueProjectWrite(root, async () => {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFileAtomic(file, text);
  });
}
