/**
 * How a code runtime is started: which file, which Node flags. Works from the sources (tests run
 * them through vitest) and from dist/: the runtime is plain JavaScript next to this module, and
 * the build copies it (tsconfig.build.json has allowJs).
 */
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sesCodeCacheFile, writeSesCodeCacheIfMissing } from "./ses-code-cache.js";

export const RUNTIME_DIRECTORY = fileURLToPath(new URL("./runtime/", import.meta.url));
export const RUNTIME_ENTRY = path.join(RUNTIME_DIRECTORY, "runtime-main.mjs");

let cached: { sesPath: string; files: string[] } | undefined;

/** SES's single-file bundle (no imports of its own, so one read permission covers it) and our files. */
function runtimeFiles(): { sesPath: string; files: string[] } {
  cached ??= {
    sesPath: createRequire(import.meta.url).resolve("ses"),
    files: readdirSync(RUNTIME_DIRECTORY)
      .filter((name) => name.endsWith(".mjs"))
      .map((name) => path.join(RUNTIME_DIRECTORY, name)),
  };
  return cached;
}

/** Node 22.13+ and 23.5+ spell it `--permission`; Node 20 only knows the experimental flag. */
function permissionFlag(): string {
  return process.allowedNodeEnvironmentFlags.has("--permission") ? "--permission" : "--experimental-permission";
}

/**
 * The command line of one runtime: the heap cap, and the permission model allowing reads of the
 * runtime's own files only: no writes, no child processes, no native addons. Worker threads are
 * allowed for the runtime's orphan watchdog; they run under the same denials.
 * Node's permission model does not cover the network; the runtime holds no network capability
 * and sandboxed code cannot reach one (see docs/code-execution.md, "Threat model").
 */
export function runtimeArguments(memoryLimitMb: number): string[] {
  const { sesPath, files } = runtimeFiles();
  const v8Flags = [`--max-old-space-size=${memoryLimitMb}`, "--max-semi-space-size=16"];
  // SES's compiled form, when cached (ses-code-cache.ts): the runtime may read that one file too.
  const cacheFile = sesCodeCacheFile(sesPath, v8Flags);
  writeSesCodeCacheIfMissing(sesPath, v8Flags, cacheFile);
  return [
    permissionFlag(),
    ...[...files, sesPath, cacheFile].map((file) => `--allow-fs-read=${file}`),
    "--allow-worker",
    ...v8Flags,
    // The permission model's "experimental" warning would only fill the stderr tail.
    "--no-warnings",
    RUNTIME_ENTRY,
    sesPath,
    cacheFile,
  ];
}
