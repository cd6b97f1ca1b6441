/**
 * Bundles the `toolexec` executable (dist/cli/bin.js, after tsc) with everything the CLI loads into
 * dist/bin/: the entry dist/bin/toolexec.js and chunks beside it. Node's ESM loader pays per module
 * (resolve, realpath, read, compile), and `toolexec serve` loaded ~420 modules before it listed its
 * tools; bundled, it loads a few dozen files (issue 30: serve listing ≤ 400 ms after spawn).
 *
 * - Every dynamic `import()` of the source stays a lazily loaded chunk (code splitting), so each
 *   command still loads only what it uses.
 * - Only the executable is bundled. The library (dist/index.js and the other public entries) stays
 *   unbundled: host apps and their bundlers need one module per file for module identity and
 *   tree-shaking. The CLI process loads no host code, so it holds one copy of each of our classes.
 * - Our modules keep their own `import.meta.url`: each use becomes the URL of the module's file in
 *   dist/, so the files found relative to a module (the code runtime, the Python worker, the console's
 *   assets, package.json, the search data) are found where tsc and copy-python-worker put them.
 *   The modules started that way (the code runtime's process, the search model's worker thread)
 *   run unbundled from dist/, each in a process or thread of its own; nothing `import()`s a dist/
 *   path into the CLI's process, which would load a second copy of our classes
 *   (test/cli/bundled-bin.test.ts).
 * - Dependencies' files are never addressed by a path relative to the bundle: after `npm install` the
 *   node_modules layout is not ours to know. The build fails if a bundled package uses
 *   `import.meta`, `__dirname`, `__filename` or `require.resolve("./…")`: its bundled copy would
 *   look beside dist/bin/.
 * - Optional peer dependencies (and the OpenTelemetry API, which must be the very module a host
 *   registers with) stay external: imported from node_modules at run time, when installed.
 * - The packages our modules `require` synchronously and bundled packages import too (ajv) are
 *   answered from the bundle: one copy in the process (SHARED_REQUIRES below).
 *
 * The bundle carries the dependencies' code as of the build: a fix in a dependency reaches the CLI
 * with a rebuild and release of toolexec. Usage: node scripts/bundle-cli.mjs [--metafile <file>] (npm run
 * build runs it).
 */
import { build } from "esbuild";
import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = path.join(ROOT, "dist");
const BUNDLE_DIRECTORY = path.join(DIST, "bin");
const packageJson = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));

/** Packages imported at run time from node_modules, not bundled. */
const EXTERNAL = [...Object.keys(packageJson.peerDependencies ?? {}), "@opentelemetry/*"];

const IMPORT_META_URL = /\bimport\.meta\.url\b/g;

/**
 * What our modules load with `createRequire(import.meta.url)(…)` (synchronously, on first use) that
 * bundled packages import too: ajv, which the MCP SDK's server imports. Our `require`s of these are
 * answered from the bundle, so the process holds one ajv; otherwise the first schema compile loaded
 * ajv's ~80 files again from node_modules (~45 ms of CPU, at serve's first call). Every other
 * specifier (package.json, optional packages, `require.resolve`) is left to Node's `require`.
 */
const SHARED_REQUIRES = ["ajv", "ajv/dist/2019", "ajv/dist/2020", "ajv/dist/refs/json-schema-draft-06.json", "ajv-draft-04", "ajv-formats"];
const SHARED_REQUIRE_MODULE = "toolexec:shared-require";
const CREATE_REQUIRE = "createRequire(import.meta.url)";

/** A module whose `sharedRequire(require)` answers the shared specifiers from the bundle, the rest through `require`. */
function sharedRequireSource() {
  // Literal `require` calls: esbuild bundles each (once, shared with the packages that import it); factories keep evaluation lazy.
  const factories = SHARED_REQUIRES.map((specifier) => `  ${JSON.stringify(specifier)}: () => require(${JSON.stringify(specifier)}),`).join("\n");
  return `const bundled = {\n${factories}\n};
export function sharedRequire(nodeRequire) {
  const answer = (specifier) => (Object.hasOwn(bundled, specifier) ? bundled[specifier]() : nodeRequire(specifier));
  return Object.assign(answer, { resolve: nodeRequire.resolve, cache: nodeRequire.cache, main: nodeRequire.main, extensions: nodeRequire.extensions });
}
`;
}

/** One of our dist modules, as the bundle holds it: its own URL kept, its `require`s of shared specifiers answered from the bundle. */
function ourModule(file, source) {
  if (/\bimport\.meta\.(?:dirname|filename|resolve)\b/.test(source)) return { errors: [{ text: `${path.relative(ROOT, file)}: use import.meta.url, the one import.meta property this bundle keeps per module` }] };
  let contents = source;
  // Only in a module that requires a shared specifier: the module that answers them carries ajv.
  // Appended: imports are hoisted, and a hashbang must stay the first line.
  if (contents.includes(CREATE_REQUIRE) && SHARED_REQUIRES.some((specifier) => contents.includes(JSON.stringify(specifier)))) {
    contents = `${contents.replaceAll(CREATE_REQUIRE, `__toolexecSharedRequire(${CREATE_REQUIRE})`)}\nimport { sharedRequire as __toolexecSharedRequire } from "${SHARED_REQUIRE_MODULE}";\n`;
  }
  const relative = path.relative(BUNDLE_DIRECTORY, file).split(path.sep).join("/");
  return { contents: contents.replace(IMPORT_META_URL, `new URL(${JSON.stringify(relative)}, import.meta.url).href`), loader: "js" };
}

/** How a module finds files beside itself: fine in our modules (rewritten above), wrong in a bundled package's. */
const SELF_RELATIVE = /\b(?:import\.meta\.(?:url|dirname|filename|resolve)|__dirname|__filename)\b|\brequire\.resolve\(\s*["']\./;

const bundlingRules = {
  name: "toolexec-bundling-rules",
  setup(builder) {
    builder.onResolve({ filter: new RegExp(`^${SHARED_REQUIRE_MODULE}$`) }, () => ({ path: SHARED_REQUIRE_MODULE, namespace: "toolexec" }));
    // Resolved from the root: where our modules' own `require`s of these resolve.
    builder.onLoad({ filter: /.*/, namespace: "toolexec" }, () => ({ contents: sharedRequireSource(), loader: "js", resolveDir: ROOT }));
    builder.onLoad({ filter: /\.[cm]?js$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      const ours = !path.relative(DIST, args.path).startsWith("..") && !args.path.includes(`${path.sep}node_modules${path.sep}`);
      if (ours) return ourModule(args.path, source);
      // A bundled package's module: esbuild loads it as it is, unless it would look for files beside itself.
      if (!SELF_RELATIVE.test(source.replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, ""))) return undefined;
      return { errors: [{ text: `${path.relative(ROOT, args.path)} addresses files relative to itself (import.meta, __dirname, __filename or require.resolve("./…")), which would move with the bundle: make its package external in scripts/bundle-cli.mjs` }] };
    });
  },
};

rmSync(BUNDLE_DIRECTORY, { recursive: true, force: true });
const result = await build({
  entryPoints: { toolexec: path.join(DIST, "cli", "bin.js") },
  outdir: BUNDLE_DIRECTORY,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: EXTERNAL,
  // Bundled CommonJS packages call `require` for Node's built-ins: ESM output needs one.
  banner: { js: 'import { createRequire as __toolexecCreateRequire } from "node:module";\nconst require = __toolexecCreateRequire(import.meta.url);' },
  plugins: [bundlingRules],
  // Not minified, no source map: minifying saved ~3% of serve's CPU until it lists its tools and
  // 1.5 MB of RSS (15 alternating starts), and would turn stack traces into `chunk-….js:1:183245`; the
  // package ships no source maps. Unminified, a trace's line is readable code, under a comment naming
  // its module in dist/.
  minify: false,
  sourcemap: false,
  // The bundled packages' license comments, gathered at the end of each file.
  legalComments: "eof",
  metafile: true,
  logLevel: "warning",
});
// Runnable as ./dist/bin/toolexec.js too (npm sets the mode of an installed "bin" itself).
chmodSync(path.join(BUNDLE_DIRECTORY, "toolexec.js"), 0o755);
// `--metafile <file>`: esbuild's account of what went into each output file (for https://esbuild.github.io/analyze/).
const metafileIndex = process.argv.indexOf("--metafile");
if (metafileIndex >= 0) writeFileSync(process.argv[metafileIndex + 1], JSON.stringify(result.metafile));
