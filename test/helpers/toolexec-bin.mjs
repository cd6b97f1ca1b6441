// The `toolexec` executable the package ships: the file package.json "bin" names, built by
// `npm run build` (the bundle in dist/bin/, scripts/bundle-cli.mjs). Tests that run the CLI as a user
// would spawn this one, so they test what `npx toolexec` runs.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPOSITORY = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const { bin } = JSON.parse(readFileSync(path.join(REPOSITORY, "package.json"), "utf8"));

/** Absolute path of the executable. */
export const TOOLEXEC_BIN = path.join(REPOSITORY, typeof bin === "string" ? bin : bin.toolexec);
