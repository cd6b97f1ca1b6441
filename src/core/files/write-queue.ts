/**
 * One sequential queue of writes per project (keyed by the project's folder), shared by every
 * executor of this process on that project: tools.json, saved-tool and trust-lock writes never
 * interleave. It is the one write path of the project's state: with a shared store (Redis) the
 * executor guards it, so every write, whichever door it came through, is refused while the store is
 * down and resolves only once the store holds it.
 */

/** What a shared store adds to every write of a project's queue. */
export interface ProjectWriteGuard {
  /** Runs in the queue before the write: rejects (`SERVICE_UNAVAILABLE`) to refuse it, nothing written. */
  before(): Promise<void>;
  /** Runs once the write left the queue: resolves when the store holds it. */
  after(): Promise<void>;
}

/** Options of {@link enqueueProjectWrite}. */
export interface ProjectWriteOptions {
  /** False for the store's own copies of what it already holds (a replica applying another's write). Default true. */
  guarded?: boolean;
}

const queues = new Map<string, Promise<unknown>>();
const guards = new Map<string, Set<ProjectWriteGuard>>();

/**
 * Guard every later write of `projectRoot`'s queue; returns the undo function.
 *
 * @example
 * const unguard = guardProjectWrites(root, { before: () => store.get("tools.json").then(() => undefined), after: () => sync.syncAll() });
 */
export function guardProjectWrites(projectRoot: string, guard: ProjectWriteGuard): () => void {
  const set = guards.get(projectRoot) ?? new Set();
  set.add(guard);
  guards.set(projectRoot, set);
  return () => {
    set.delete(guard);
    if (set.size === 0 && guards.get(projectRoot) === set) guards.delete(projectRoot);
  };
}

/**
 * Run `task` after every write queued before it for `projectRoot`; resolves or rejects with it.
 * A failed write does not stop the queue.
 *
 * @example
 * await enqueueProjectWrite(root, () => writeFileAtomic(file, text));
 */
export function enqueueProjectWrite<Value>(projectRoot: string, task: () => Promise<Value>, options: ProjectWriteOptions = {}): Promise<Value> {
  const active = options.guarded === false ? [] : [...(guards.get(projectRoot) ?? [])];
  const guarded =
    active.length === 0
      ? task
      : async () => {
          for (const guard of active) await guard.before();
          return task();
        };
  const previous = queues.get(projectRoot) ?? Promise.resolve();
  const run = previous.then(guarded, guarded);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(projectRoot, settled);
  // Forget an idle queue, so the map holds only projects with writes under way.
  void settled.then(() => {
    if (queues.get(projectRoot) === settled) queues.delete(projectRoot);
  });
  if (active.length === 0) return run;
  // Shared outside the queue: sharing writes files of its own through it.
  return run.then(async (value) => {
    for (const guard of active) await guard.after();
    return value;
  });
}
