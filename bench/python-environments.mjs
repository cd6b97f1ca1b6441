/**
 * What reusing a built Python environment costs a new executor: `ensurePythonEnvironment` in a
 * fresh Node process (no in-process memory of it; its interpreter already resolved), against the
 * baseline every Python tool pays anyway, resolving its interpreter (a pyenv shim costs a spawn). The environment (tabulate) is built once first, in a temporary
 * folder. Run after `npm run build`: node bench/python-environments.mjs [--runs 15]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { flag, format, median } from "./bench-utils.mjs";

const runs = Number(flag("runs", "15"));
const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "dist", "core");
const folder = mkdtempSync(path.join(os.tmpdir(), "toolexec-bench-envs-"));
const spec = { requirements: { kind: "list", requirements: ["tabulate==0.9.0"] }, source: "bench" };
const script = (what) => `
const { ensurePythonEnvironment } = await import(${JSON.stringify(path.join(dist, "python-environments", "ensure-python-environment.js"))});
const { resolvePythonInterpreter } = await import(${JSON.stringify(path.join(dist, "python-interpreter.js"))});
// The interpreter is resolved first in both cases (cached per process): what is timed is the step itself.
if (${JSON.stringify(what)} === "ensure") await resolvePythonInterpreter("python3", process.cwd());
const started = performance.now();
${what === "ensure" ? `const environment = await ensurePythonEnvironment(${JSON.stringify(spec)}, { interpreter: "python3", cwd: process.cwd(), folder: ${JSON.stringify(folder)} });` : `await resolvePythonInterpreter("python3", process.cwd());`}
process.stdout.write(String(performance.now() - started));`;
const measure = (what) => Number(execFileSync(process.execPath, ["--input-type=module", "-e", script(what)], { encoding: "utf8" }));

try {
  const built = performance.now();
  measure("ensure");
  console.log(`first build (tabulate): ${format(performance.now() - built)}`);
  const baseline = [];
  const check = [];
  for (let run = 0; run < runs; run++) {
    baseline.push(measure("resolve"));
    check.push(measure("ensure"));
  }
  console.log(`resolve the interpreter (baseline), fresh process: median ${format(median(baseline))}`);
  console.log(`check and reuse a built environment, fresh process: median ${format(median(check))} (${(median(check) / median(baseline)).toFixed(2)}× the baseline; budget 100 ms)`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
