/**
 * The worker thread a search model runs in: loading the model (`InferenceSession.create` blocks its
 * thread for 0.5–1 s, many times that on a busy machine), tokenizing and pooling all happen here, so
 * the host's event loop never waits on them. Messages: `{ id, texts }` in, `{ id, vectors }` or
 * `{ id, error }` out; the vectors' buffers are transferred, not copied.
 */
import { parentPort, workerData } from "node:worker_threads";
import { loadModelEmbedder } from "./model-embedder.js";
import type { ModelFolder } from "./model-folder.js";

const port = parentPort;
if (port) {
  const { model, cacheFolder } = workerData as { model: ModelFolder; cacheFolder: string | undefined };
  const loading = loadModelEmbedder(model, cacheFolder);
  // A failed load is answered to each request (as its error), never thrown out of the worker.
  loading.catch(() => undefined);
  port.on("message", async ({ id, texts }: { id: number; texts: string[] }) => {
    try {
      const vectors = await (await loading).embed(texts);
      port.postMessage({ id, vectors }, vectors.map((vector) => vector.buffer as ArrayBuffer));
    } catch (error) {
      port.postMessage({ id, error: { message: (error as Error)?.message ?? String(error), code: (error as { code?: unknown })?.code } });
    }
  });
}
