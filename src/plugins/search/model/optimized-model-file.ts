/**
 * The model's optimized graph, kept beside the tool vectors so a second executor skips optimizing it:
 * `InferenceSession.create` spends most of its 230–300 ms of CPU on graph optimization, and it blocks
 * the worker, so a second executor's first search waits for it. Loading the saved graph with
 * optimization off measured 165–180 ms, with the same numbers out to the last bit (9 million values
 * compared). The level is "extended", not "all": beyond it onnxruntime warns that the saved graph may
 * hold hardware-specific kernels; for a sentence-transformers export (no convolutions) the two give
 * the same vectors. The file is large (the int8 weights are folded to floats: ~90 MB for
 * all-MiniLM-L6-v2-int8), so one per model path is kept: saving a new one removes the older ones.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { threadId } from "node:worker_threads";

/** The session options both loads share (the worker threads sleep between runs, see model-embedder). */
type SessionOptions = Record<string, unknown>;
type CreateSession<Session> = (file: string, options: SessionOptions) => Promise<Session>;

const SUFFIX = ".optimized.onnx";

const digest = (value: string) => createHash("sha256").update(value).digest("hex").slice(0, 16);

/**
 * The saved graph's name: the model file's path, then what the graph was made from (the file's size
 * and modification time, the runtime's version, the platform), so a changed model or an upgraded
 * runtime gets a new graph.
 */
function fileNames(modelFile: string, runtimeVersion: string): { prefix: string; name: string } {
  const stat = statSync(modelFile);
  const prefix = `model-${digest(modelFile)}-`;
  return { prefix, name: `${prefix}${digest(JSON.stringify([stat.size, stat.mtimeMs, runtimeVersion, process.platform, process.arch]))}${SUFFIX}` };
}

/** Remove the other saved graphs of the same model path (an older model or runtime); best effort. */
function removeOlder(cacheFolder: string, prefix: string, keep: string): void {
  for (const name of readdirSync(cacheFolder)) {
    if (name.startsWith(prefix) && name.endsWith(SUFFIX) && name !== keep) rmSync(path.join(cacheFolder, name), { force: true });
  }
}

/**
 * A session for `modelFile`: from the optimized graph saved in `cacheFolder` when there is one, else
 * optimized now and saved there (written under a temporary name and renamed, so a reader never sees
 * half a file). A saved graph that fails to load is made again; a folder that cannot be written only
 * means the next executor optimizes again.
 *
 * @example
 * const session = await createOptimizedSession((file, options) => runtime.InferenceSession.create(file, options), model.modelFile, cacheFolder, "1.30.0", options);
 */
export async function createOptimizedSession<Session>(create: CreateSession<Session>, modelFile: string, cacheFolder: string | undefined, runtimeVersion: string, options: SessionOptions): Promise<Session> {
  if (cacheFolder === undefined) return create(modelFile, { ...options, graphOptimizationLevel: "extended" });
  const { prefix, name } = fileNames(modelFile, runtimeVersion);
  const saved = path.join(cacheFolder, name);
  if (existsSync(saved)) {
    try {
      return await create(saved, { ...options, graphOptimizationLevel: "disabled" });
    } catch {
      // Unreadable (damaged, or written by a runtime that reads it differently): optimized and saved again below.
    }
  }
  const temporary = `${saved}.${process.pid}-${threadId}.tmp`;
  let session: Session;
  try {
    mkdirSync(cacheFolder, { recursive: true });
    session = await create(modelFile, { ...options, graphOptimizationLevel: "extended", optimizedModelFilePath: temporary });
  } catch {
    // Nothing can be saved here (a read-only project): the next executor optimizes again.
    return create(modelFile, { ...options, graphOptimizationLevel: "extended" });
  }
  bestEffort(() => {
    renameSync(temporary, saved);
    removeOlder(cacheFolder, prefix, name);
  });
  bestEffort(() => rmSync(temporary, { force: true }));
  return session;
}

function bestEffort(act: () => void): void {
  try {
    act();
  } catch {
    // The saved graph only saves time: failing to tidy it up never fails the load.
  }
}
