// The host's share of a code execution, and why: for each build, in a fresh process run with
// `--trace-gc-nvp`, sequential trivial runs (`1 + 1`) on a pool of one runtime, then sequential calls
// of an in-process no-op tool through the pipeline alone. Per run / call: host CPU, bytes promoted
// to the old generation by scavenges, and scavenge pause time. Objects a run no longer uses should
// die young; promoted bytes mean something kept them across a scavenge (a full GC frees them later).
//
// With `--baseline <dist>` the two builds' rounds are interleaved (order alternating) and the
// ratios printed. CPU moves with the machine's load (printed with each round); promoted bytes do not.
// Usage: npm run build && node bench/code-host-cpu.mjs [--runs 6000] [--calls 60000] [--rounds 3] [--baseline /path/to/dist]
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { flag, median } from "./bench-utils.mjs";

const runs = flag("runs", 6000);
const calls = flag("calls", 60000);
const rounds = flag("rounds", 3);
const baselineIndex = process.argv.indexOf("--baseline");
const baselineDist = baselineIndex >= 0 ? process.argv[baselineIndex + 1] : undefined;
const here = path.dirname(fileURLToPath(import.meta.url));
const ownDist = path.resolve(here, "../dist");
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ")[0];

/** The measured part of one target process, from its own lines and V8's scavenge lines after its mark. */
function measure(dist, mode) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--trace-gc-nvp", path.join(here, "code-host-cpu-target.mjs"), dist, mode, String(mode === "code" ? runs : calls)], { stdio: ["ignore", "pipe", "inherit"] });
    let text = "";
    child.stdout.on("data", (chunk) => (text += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`${mode} target for ${dist} exited with ${code}`));
      const after = text.slice(text.indexOf("MEASURING"));
      let promoted = 0;
      let pause = 0;
      let scavenges = 0;
      for (const line of after.split("\n")) {
        if (!line.includes("gc=s ")) continue;
        scavenges++;
        promoted += Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0);
        pause += Number(/ pause=([\d.]+)/.exec(line)?.[1] ?? 0);
      }
      const result = JSON.parse(/RESULT (.*)/.exec(after)[1]);
      resolve({ cpuMs: result.cpuMs / result.count, promotedBytes: promoted / result.count, scavengeMs: pause / result.count, scavenges });
    });
  });
}

const builds = [{ name: "this build", dist: ownDist }, ...(baselineDist ? [{ name: `baseline ${path.basename(path.dirname(path.resolve(baselineDist)))}`, dist: path.resolve(baselineDist) }] : [])];
const figures = new Map(builds.map((build) => [build.name, { code: [], pipeline: [] }]));
console.log(`machine: ${os.cpus().length} cores; ${runs} trivial runs and ${calls} pipeline calls per round, ${rounds} rounds`);
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? builds : [...builds].reverse();
  for (const build of order) {
    for (const mode of ["code", "pipeline"]) {
      const figure = await measure(build.dist, mode);
      figures.get(build.name)[mode].push(figure);
      console.log(`round ${round + 1} load ${load()}  ${build.name.padEnd(22)} ${mode.padEnd(8)} host CPU ${(figure.cpuMs * 1000).toFixed(1)} µs, promoted ${figure.promotedBytes.toFixed(0)} B, scavenge ${(figure.scavengeMs * 1000).toFixed(2)} µs (${figure.scavenges} scavenges)`);
    }
  }
}
const medianOf = (list, key) => median(list.map((figure) => figure[key]));
console.log("\nmedians per trivial run / per pipeline call");
for (const { name } of builds) {
  const { code, pipeline } = figures.get(name);
  console.log(`${name.padEnd(24)} code: host CPU ${(medianOf(code, "cpuMs") * 1000).toFixed(1)} µs, promoted ${medianOf(code, "promotedBytes").toFixed(0)} B, scavenge ${(medianOf(code, "scavengeMs") * 1000).toFixed(2)} µs | pipeline: host CPU ${(medianOf(pipeline, "cpuMs") * 1000).toFixed(2)} µs, promoted ${medianOf(pipeline, "promotedBytes").toFixed(0)} B, scavenge ${(medianOf(pipeline, "scavengeMs") * 1000).toFixed(2)} µs`);
}
if (baselineDist) {
  const [own, base] = builds.map(({ name }) => figures.get(name));
  const ratio = (mode, key) => (medianOf(own[mode], key) / medianOf(base[mode], key)).toFixed(2);
  console.log(`this build / baseline: trivial run host CPU ${ratio("code", "cpuMs")}x, pipeline call host CPU ${ratio("pipeline", "cpuMs")}x; load at the end ${load()}`);
}
