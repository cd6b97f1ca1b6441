/** Where the trust lock file lives, in a module of its own: the start path names it without loading its reader (and zod). */
import path from "node:path";

/** Where the lock file lives, relative to the project root. */
export const TRUST_LOCK_FILE = path.join(".toolexec", "tools.lock.json");
