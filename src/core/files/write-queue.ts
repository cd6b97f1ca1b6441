/**
 * One sequential queue of writes per project (keyed by the project's folder), shared by every
 * executor of this process on that project: tools.json and saved-tool writes never interleave.
 */

const queues = new Map<string, Promise<unknown>>();

/**
 * Run `task` after every write queued before it for `projectRoot`; resolves or rejects with it.
 * A failed write does not stop the queue.
 *
 * @example
 * await enqueueProjectWrite(root, () => writeFileAtomic(file, text));
 */
export function enqueueProjectWrite<Value>(projectRoot: string, task: () => Promise<Value>): Promise<Value> {
  const previous = queues.get(projectRoot) ?? Promise.resolve();
  const run = previous.then(task, task);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(projectRoot, settled);
  // Forget an idle queue, so the map holds only projects with writes under way.
  void settled.then(() => {
    if (queues.get(projectRoot) === settled) queues.delete(projectRoot);
  });
  return run;
}
