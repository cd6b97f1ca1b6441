/**
 * Crash safety of registry and saved-tool writes: a real child process writes in a loop and is
 * killed with SIGKILL at random moments, 50 times; after each kill tools.json, the set of saved-tool
 * files and the saved tool rewritten in place are each the last version acknowledged (or found on
 * disk when that writer started) or the one after it (written but not yet acknowledged), never a
 * partial or invalid file, and at most the one temp file of the last killed write is left in each
 * folder (the next writer removes those of dead processes).
 */
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadToolsConfig } from "../../src/core/config/load-tools-config.js";
import { parseSavedToolFile } from "../../src/plugins/code/saved/saved-tool-file.js";
import { createTempProject } from "../helpers/temp-project.js";

const WRITER = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "registry-writer.mjs");
const KILLS = 50;
const PROJECTS = 5;

type Acknowledged = { tools: number; saved: number; current: number };

/** Runs the writer until `acks` more acknowledgements arrived, then kills it within a random few ms; resolves to the last ack of each kind. */
function runAndKill(root: string, acks: number, last: Acknowledged): Promise<Acknowledged> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRITER, root], { stdio: ["ignore", "pipe", "pipe"] });
    const seen = { ...last };
    let pending = "";
    let stderr = "";
    let counted = 0;
    let killing = false;
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on("data", (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split("\n");
      pending = lines.pop()!;
      for (const line of lines) {
        const [word, kind, number] = line.split(" ");
        if (word !== "ack") continue;
        seen[kind as keyof Acknowledged] = Number(number);
        if (++counted === acks && !killing) {
          killing = true;
          // A random moment: usually in the middle of the next write.
          setTimeout(() => child.kill("SIGKILL"), Math.floor(Math.random() * 12));
        }
      }
    });
    child.once("error", reject);
    // "close", not "exit": it comes after stdout ended, so every ack the writer printed before the
    // kill has been read (on "exit" the last one can still sit in the pipe).
    child.once("close", (code, signal) => {
      if (signal !== "SIGKILL") reject(new Error(`the writer exited by itself (${code}): ${stderr}`));
      else resolve(seen);
    });
  });
}

/** One project, written and killed `kills` times in a row, checked after each kill. */
async function killRepeatedly(kills: number): Promise<number> {
  const project = createTempProject({ tools: `${JSON.stringify({ tools: [] }, null, 2)}\n` });
  project.write("tools/w.sh", "echo '{}'\n");
  mkdirSync(project.path(".toolexec/saved-tools"), { recursive: true });
  let last: Acknowledged = { tools: -1, saved: -1, current: -1 };
  for (let kill = 0; kill < kills; kill++) {
    last = await runAndKill(project.root, 1 + Math.floor(Math.random() * 4), last);

    const bytes = readFileSync(project.path("tools.json"));
    const loaded = await loadToolsConfig(project.root, "tools.json", bytes);
    expect(loaded.status, `tools.json after kill ${kill}`).toBe("ok");
    const names = JSON.parse(bytes.toString("utf8")).tools.map((tool: { name: string }) => tool.name);
    const acknowledged = [...Array(last.tools + 1).keys()].map((index) => `w${index}`);
    expect([acknowledged, [...acknowledged, `w${last.tools + 1}`]], `tools.json after kill ${kill}`).toContainEqual(names);

    const files = readdirSync(project.path(".toolexec/saved-tools")).filter((name) => name.endsWith(".js") && !name.startsWith("."));
    const versions: number[] = [];
    for (const file of files) {
      const parsed = parseSavedToolFile(readFileSync(project.path(`.toolexec/saved-tools/${file}`), "utf8"));
      expect(parsed.ok, `${file} after kill ${kill}`).toBe(true);
      if (parsed.ok) expect(`${String(parsed.definition.name)}.js`).toBe(file);
      if (parsed.ok && file === "current.js") versions.push(Number(/^Version (\d+) /.exec(String(parsed.definition.description))![1]));
    }
    // The file rewritten in place: the last acknowledged version or the next, whole (none before its first write).
    expect([last.current === -1 ? [] : [last.current], [last.current + 1]], `current.js after kill ${kill}`).toContainEqual(versions);
    // A writer killed mid-write leaves its temp file; the next writer removes those of dead processes.
    expect(readdirSync(project.root).filter((name) => name.endsWith(".tmp")).length, `temp files after kill ${kill}`).toBeLessThanOrEqual(1);
    const savedTemporary = readdirSync(project.path(".toolexec/saved-tools")).filter((name) => name.endsWith(".tmp"));
    expect(savedTemporary.length, `saved-tool temp files after kill ${kill}: ${savedTemporary.join(", ")}`).toBeLessThanOrEqual(1);
    const savedAcknowledged = [...Array(last.saved + 1).keys()].map((index) => `s${index}.js`).sort();
    const numbered = files.filter((file) => file !== "current.js").sort();
    expect([savedAcknowledged, [...savedAcknowledged, `s${last.saved + 1}.js`].sort()], `saved tools after kill ${kill}`).toContainEqual(numbered);
    // A write that completed but was killed before its ack is on disk now: the next writer numbers on
    // from it, so it is the baseline the next kill is checked against.
    last = { tools: names.length - 1, saved: numbered.length - 1, current: versions[0] ?? -1 };
  }
  expect(last.current, "versions of current.js acknowledged").toBeGreaterThan(0);
  return last.tools;
}

describe("crash safety", () => {
  it(`leaves tools.json and saved-tool files whole after ${KILLS} SIGKILLs mid-write`, async () => {
    // Projects side by side, an equal share of the kills each: the same kills, checked the same way,
    // while much of each round is a process start and fsyncs that leave the cores to the others.
    const written = await Promise.all(Array.from({ length: PROJECTS }, () => killRepeatedly(KILLS / PROJECTS)));
    // Each project's writers got on: about one tools.json entry per two kills at least.
    for (const tools of written) expect(tools).toBeGreaterThanOrEqual(KILLS / PROJECTS / 2);
  }, 180_000);
});
