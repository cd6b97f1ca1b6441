/**
 * Copies the Python worker (src/plugins/python/worker/*.py) next to the compiled plugin in dist/:
 * tsc copies only JavaScript, and the plugin finds the worker relative to its own module.
 */
import { cp } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const from = fileURLToPath(new URL("../src/plugins/python/worker/", import.meta.url));
const to = fileURLToPath(new URL("../dist/plugins/python/worker/", import.meta.url));
await cp(from, to, { recursive: true, filter: (source) => !source.includes("__pycache__") });
