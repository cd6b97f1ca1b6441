/**
 * SES's V8 code cache (issue 30, runtime start): the first runtime started without it has the host
 * write it in the background into the user's cache folder; V8 accepts it under the runtime's flags,
 * and the runtime may read it. A damaged cache costs only the compile: the runtime still starts.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runtimeArguments } from "../../src/plugins/code/runtime-command.js";
import { spawnRuntime } from "../../src/plugins/code/runtime-process.js";
import { sesCodeCacheFile } from "../../src/plugins/code/ses-code-cache.js";

const linux = process.platform === "linux";
let cacheHome: string;
let previous: string | undefined;

beforeAll(() => {
  cacheHome = mkdtempSync(path.join(os.tmpdir(), "toolexec-ses-cache-"));
  previous = process.env.XDG_CACHE_HOME;
  process.env.XDG_CACHE_HOME = cacheHome;
});
afterAll(() => {
  if (previous === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = previous;
  rmSync(cacheHome, { recursive: true, force: true });
});

/** Polls for `file` (the writer runs in the background at the lowest priority): true once it exists. */
async function appears(file: string, deadlineMs: number): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  while (!existsSync(file)) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/** A runtime with this heap cap starts (SES loaded, locked down: it reports ready), then ends. */
async function startRuntime(memoryLimitMb: number): Promise<void> {
  const runtime = spawnRuntime({ memoryLimitMb, maxFrameBytes: 1 << 20 });
  try {
    await runtime.ready;
  } finally {
    runtime.kill();
    await runtime.exited;
  }
}

describe.runIf(linux)("SES code cache", () => {
  it("is written in the background the first time, V8 accepts it under the runtime's flags, and the runtime may read it", async () => {
    const args = runtimeArguments(96);
    const cacheFile = args.at(-1)!;
    const sesPath = args.at(-2)!;
    expect(cacheFile.startsWith(path.join(cacheHome, "toolexec", "code-runtime") + path.sep)).toBe(true);
    expect(args).toContain(`--allow-fs-read=${cacheFile}`);
    expect(await appears(cacheFile, 60_000)).toBe(true);
    const v8Flags = args.filter((argument) => argument.startsWith("--max-"));
    const check = `const vm = require("node:vm"); const fs = require("node:fs");
const script = new vm.Script(fs.readFileSync(${JSON.stringify(sesPath)}, "utf8"), { filename: ${JSON.stringify(sesPath)}, cachedData: fs.readFileSync(${JSON.stringify(cacheFile)}) });
console.log(JSON.stringify({ rejected: script.cachedDataRejected }));`;
    const accepted = spawnSync(process.execPath, [...v8Flags, "-e", check], { encoding: "utf8", timeout: 30_000 });
    expect(JSON.parse(accepted.stdout)).toEqual({ rejected: false });
    await startRuntime(96);
  });

  it("starts a runtime whose cache file is damaged, and leaves the file to V8's judgement", async () => {
    // Another heap cap, another file: damaged before any runtime asks for it, so no writer replaces it.
    const cacheFile = sesCodeCacheFile(createRequire(import.meta.url).resolve("ses"), ["--max-old-space-size=97", "--max-semi-space-size=16"]);
    mkdirSync(path.dirname(cacheFile), { recursive: true });
    writeFileSync(cacheFile, Buffer.alloc(4096, 7));
    expect(cacheFile).toBe(runtimeArguments(97).at(-1));
    await startRuntime(97);
  });
});
