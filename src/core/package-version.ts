/**
 * toolexec's own version, read once from its package.json (two folders up from both src/core and
 * dist/core), so telemetry scopes, the served server info and `--version` never drift from a release.
 */
import { createRequire } from "node:module";

export const PACKAGE_VERSION: string = (createRequire(import.meta.url)("../../package.json") as { version: string }).version;
