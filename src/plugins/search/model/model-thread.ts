/**
 * A search model in a worker thread (`model-worker`), behind the same `ModelEmbedder` shape as the
 * in-process one. Where the worker's compiled file is not beside this one (the sources run through a
 * TypeScript loader), the model runs in-process instead.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { ToolexecError } from "../../../core/errors/toolexec-error.js";
import { loadModelEmbedder, type ModelEmbedder } from "./model-embedder.js";
import type { ModelFolder } from "./model-folder.js";

type Reply = { id: number; vectors: Float32Array[] } | { id: number; error: { message: string; code?: string } };

/**
 * Start the model in a worker thread (or in-process, see above); the model loads there at once, its
 * optimized graph kept in `cacheFolder`.
 *
 * @example
 * const embedder = startModelThread(resolveModelFolder(folder, root), "/project/.toolexec/cache/tool-search");
 */
export function startModelThread(model: ModelFolder, cacheFolder?: string): Promise<ModelEmbedder> | ModelEmbedder {
  const script = new URL("./model-worker.js", import.meta.url);
  if (!existsSync(fileURLToPath(script))) return loadModelEmbedder(model, cacheFolder);
  const worker = new Worker(script, { workerData: { model, cacheFolder } });
  worker.unref();
  const pending = new Map<number, { resolve(vectors: Float32Array[]): void; reject(error: Error): void }>();
  let next = 0;
  const failAll = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  worker.on("message", (reply: Reply) => {
    const waiting = pending.get(reply.id);
    pending.delete(reply.id);
    if ("error" in reply) waiting?.reject(new ToolexecError("PLUGIN_FAILED", `toolSearch.model: ${reply.error.message}`));
    else waiting?.resolve(reply.vectors);
  });
  worker.on("error", (error) => failAll(new ToolexecError("PLUGIN_FAILED", `toolSearch.model: the model's worker failed: ${error.message}`, { cause: error })));
  worker.on("exit", () => failAll(new ToolexecError("PLUGIN_FAILED", "toolSearch.model: the model's worker exited")));
  return {
    embed(texts) {
      if (texts.length === 0) return Promise.resolve([]);
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        // Referenced while a request is out, so a host awaiting a search is not left with an idle loop.
        worker.ref();
        worker.postMessage({ id, texts });
      }).finally(() => {
        if (pending.size === 0) worker.unref();
      }) as Promise<Float32Array[]>;
    },
    async close() {
      await worker.terminate();
    },
  };
}
