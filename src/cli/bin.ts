#!/usr/bin/env node
/**
 * The `toolexec` executable (package.json "bin"): runs the CLI with this process's arguments, always.
 * `npm run build` bundles it with everything the CLI loads into dist/bin/ (scripts/bundle-cli.mjs):
 * a few dozen files instead of ~400 modules, so `toolexec serve` answers sooner after its spawn.
 */
import { runCliProcess } from "./main.js";

await runCliProcess();
