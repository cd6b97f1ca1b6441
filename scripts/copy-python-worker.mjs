/**
 * Copies the Python worker (src/plugins/python/worker/*.py) and the MCP plugin's Python server
 * launcher (src/plugins/mcp/python/) next to the compiled plugins in dist/: tsc copies only
 * JavaScript, and each plugin finds its Python files relative to its own module. The old copy goes
 * first, so a file since removed from the source never ships from a stale dist/.
 */
import { cp, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";

for (const folder of ["plugins/python/worker/", "plugins/mcp/python/"]) {
  const from = fileURLToPath(new URL(`../src/${folder}`, import.meta.url));
  const to = fileURLToPath(new URL(`../dist/${folder}`, import.meta.url));
  await rm(to, { recursive: true, force: true });
  await cp(from, to, { recursive: true, filter: (source) => !source.includes("__pycache__") });
}
