// @ts-check
/// <reference types="ses" />
/**
 * Writes SES's V8 code cache, which the code runtime hands to V8 instead of compiling SES again
 * (about 20 ms of CPU per runtime start). The host runs it in the background, once per machine,
 * SES and Node version, with the runtime's V8 flags: V8 refuses a cache made under other flags.
 * Nothing but SES runs here. The file appears whole (written aside, then renamed) or not at all.
 *
 * Usage: node [the runtime's V8 flags] write-ses-cache.mjs <path of ses/dist/ses.cjs> <cache file>
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Script } from "node:vm";

const [sesPath, cacheFile] = process.argv.slice(2);
if (sesPath === undefined || cacheFile === undefined) {
  process.stderr.write("usage: node write-ses-cache.mjs <ses.cjs> <cache file>\n");
  process.exit(64);
}
const script = new Script(readFileSync(sesPath, "utf8"), { filename: sesPath });
script.runInThisContext();
// Lockdown compiles most of SES's functions: made after it, the cache holds them too.
lockdown({ errorTaming: "safe", errorTrapping: "none", unhandledRejectionTrapping: "none", reporting: "none" });
mkdirSync(path.dirname(cacheFile), { recursive: true, mode: 0o700 });
const aside = `${cacheFile}.${process.pid}.tmp`;
writeFileSync(aside, script.createCachedData(), { mode: 0o600 });
renameSync(aside, cacheFile);
