/**
 * SES compiled once per machine: the code runtime reads SES's V8 code cache from the user's cache
 * folder (`…/toolexec/code-runtime/`) instead of compiling its 500 KB at every start. The runtime
 * may not write (Node's permission model), so when the file is missing the host writes it: one
 * background process, at the lowest priority, the first time a runtime starts without it. A cache
 * V8 refuses (another Node, other flags, a damaged file) only costs the compile it would have saved.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { userCacheFolder } from "../../core/files/user-cache-folder.js";

const WRITER = fileURLToPath(new URL("./ses-cache/write-ses-cache.mjs", import.meta.url));
const digests = new Map<string, string>();
const asked = new Set<string>();

/**
 * Where SES at `sesPath`, compiled under `v8Flags`, is cached: the name changes with whatever V8
 * checks before it accepts a cache (its version, the flags) and with SES itself.
 *
 * @example
 * sesCodeCacheFile("/app/node_modules/ses/dist/ses.cjs", ["--max-old-space-size=128"]); // "~/.cache/toolexec/code-runtime/ses-1f0c….cache"
 */
export function sesCodeCacheFile(sesPath: string, v8Flags: readonly string[], environment: Readonly<Record<string, string | undefined>> = process.env): string {
  let digest = digests.get(sesPath);
  if (digest === undefined) digests.set(sesPath, (digest = createHash("sha256").update(readFileSync(sesPath)).digest("hex")));
  const key = createHash("sha256").update(JSON.stringify([process.version, process.arch, v8Flags, digest])).digest("hex").slice(0, 24);
  return path.join(userCacheFolder(environment), "code-runtime", `ses-${key}.cache`);
}

/**
 * Start writing `cacheFile` in the background unless it exists (asked once per file and process).
 * Never throws and never waits: a home that cannot be written to just means no cache.
 */
export function writeSesCodeCacheIfMissing(sesPath: string, v8Flags: readonly string[], cacheFile: string): void {
  if (asked.has(cacheFile)) return;
  asked.add(cacheFile);
  if (existsSync(cacheFile)) return;
  try {
    mkdirSync(path.dirname(cacheFile), { recursive: true, mode: 0o700 });
  } catch {
    return;
  }
  const writer = spawn(process.execPath, [...v8Flags, WRITER, sesPath, cacheFile], { stdio: "ignore", env: {} });
  writer.on("error", () => {});
  writer.unref();
  try {
    // Behind the runtimes and the host: it saves time only from the next runtime on.
    if (writer.pid !== undefined) os.setPriority(writer.pid, 19);
  } catch {
    // Not allowed on this system: it runs at normal priority.
  }
}
