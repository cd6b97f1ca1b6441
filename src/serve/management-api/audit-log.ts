/**
 * The management API's audit trail: one JSON line per change (who, what, the file's tag before and
 * after, the entry's tag before and after), appended in order to `.toolexec/registry-audit.jsonl`
 * in the project unless the host takes the lines itself.
 */
import { appendFile, mkdir } from "node:fs/promises";
import path from "node:path";

/** Where audit lines go by default, relative to the project root. */
export const DEFAULT_AUDIT_FILE = ".toolexec/registry-audit.jsonl";

export interface RegistryAuditEntry {
  time: string;
  /** Who: the key's fingerprint, the client's address and user agent. */
  actor: { key: string; address?: string; userAgent?: string };
  action: "create" | "replace" | "update" | "remove";
  tool: string;
  /** tools.json's tag before and after the change. */
  before: string;
  after: string;
  entryBefore?: string;
  entryAfter?: string;
  script?: string;
}

export type AuditWriter = (entry: RegistryAuditEntry) => Promise<void>;

/** Appends each line to `file` (created with its folder), one write at a time. */
export function createAuditFile(file: string): AuditWriter {
  let last: Promise<void> = Promise.resolve();
  return (entry) => {
    const write = last.then(async () => {
      await mkdir(path.dirname(file), { recursive: true });
      await appendFile(file, `${JSON.stringify(entry)}\n`);
    });
    last = write.catch(() => undefined);
    return write;
  };
}
