/**
 * Copies the Python worker (src/plugins/python/worker/*.py) next to the compiled plugin in dist/:
 * tsc copies only JavaScript, and the plugin finds the worker relative to its own module. The old copy
 * goes first, so a file since removed from the source never ships from a stale dist/.
 */
import { cp, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const from = fileURLToPath(new URL("../src/plugins/python/worker/", import.meta.url));
const to = fileURLToPath(new URL("../dist/plugins/python/worker/", import.meta.url));
await rm(to, { recursive: true, force: true });
await cp(from, to, { recursive: true, filter: (source) => !source.includes("__pycache__") });
