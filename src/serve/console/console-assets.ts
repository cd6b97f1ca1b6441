/**
 * The console's front end: plain HTML, CSS and ES modules in the package's `console/` folder (no
 * build step, no framework), loaded once into memory. Only files found there at start are served,
 * by exact name, so no request path ever reaches the file system.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The package's `console/` folder: three levels up from src/serve/console and from dist/serve/console alike. */
export const CONSOLE_ASSETS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "console");

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
};

export interface ConsoleAsset {
  type: string;
  body: Buffer;
}

/** Every asset of `dir` by file name. */
export function loadConsoleAssets(dir = CONSOLE_ASSETS_DIR): Map<string, ConsoleAsset> {
  const assets = new Map<string, ConsoleAsset>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const type = TYPES[path.extname(entry.name)];
    if (entry.isFile() && type !== undefined) assets.set(entry.name, { type, body: readFileSync(path.join(dir, entry.name)) });
  }
  return assets;
}
