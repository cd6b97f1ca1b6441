/**
 * Keeps the search index current off the request path. Nothing is indexed at start: an executor
 * that never searches pays neither the index nor the word vectors. The first build comes with the
 * first search, or in the background once the host has been up for IDLE_BUILD_DELAY_MS (for a
 * registry of IDLE_BUILD_MIN_TOOLS or more), whichever is first; from then on each `tools:changed`
 * is followed in the background. Background work runs
 * in slices of a few milliseconds, yielding to the event loop between them, so a host serving
 * 10,000 tools is never blocked for long. A search that comes first finishes the remainder itself,
 * so results never depend on timing.
 */
import { performance } from "node:perf_hooks";
import type { ToolDefinition } from "../../core/plugin-contract.js";
import type { IndexJob, IndexUpdate, ToolIndex } from "./tool-index.js";

/** Longest slice of indexing between two turns of the event loop. */
export const INDEX_SLICE_MS = 8;
/**
 * How long after start the first build waits for a search before it runs in the background: past
 * the start-up a host's readiness is measured by, short enough that a search a few seconds in finds
 * the index ready.
 */
export const IDLE_BUILD_DELAY_MS = 2_000;
/**
 * The idle build runs only for a registry of at least this many tools: below it a first search builds
 * the index in a few tens of milliseconds, and an idle host keeps neither the index nor the word
 * vectors (about 12 MB of a small serve process).
 */
export const IDLE_BUILD_MIN_TOOLS = 1_000;
/** While the registry is still empty (plugins starting), how often and how long to look again. */
const EMPTY_LISTING_RETRY_MS = 10;
const EMPTY_LISTING_RETRIES = 500;

export interface BackgroundIndexer {
  /** The tools changed: index the new listing in the background. */
  markStale(): void;
  /** Bring the index up to date now, finishing any background work; says what this call changed. */
  current(): IndexUpdate;
  close(): void;
}

/**
 * An indexer over `index`; `afterBuild` runs once a background build is complete (warming later
 * stages); the first build waits `idleDelay` ms for a search before it runs in the background.
 *
 * @example
 * const indexer = createBackgroundIndexer(index, () => context.listTools());
 * context.onToolsChanged(() => indexer.markStale());
 */
export function createBackgroundIndexer(index: ToolIndex, listTools: () => readonly ToolDefinition[], afterBuild?: () => void, idleDelay = IDLE_BUILD_DELAY_MS): BackgroundIndexer {
  let job: IndexJob | undefined;
  let stale = true;
  /** Has the first build begun (a search, or the idle delay)? Until then a change is only noted. */
  let started = false;
  /** Has a listing been indexed that holds the registry? At start the registry is empty until every plugin is up, and no change is signalled then. */
  let trusted = false;
  let retries = 0;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  const cancel = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  /**
   * The next slice after `after` ms (the next turn of the event loop by default). A timer, not an
   * immediate: neither may keep the process alive (unref), and an unref'd immediate does not stop
   * the loop from sleeping in its poll until some other event comes — in a quiet host the build
   * stopped after its first slice. An unref'd timer still wakes the loop.
   */
  const schedule = (after = 0) => {
    if (closed || timer) return;
    timer = setTimeout(tick, after);
    timer.unref();
  };
  function tick(): void {
    timer = undefined;
    if (closed) return;
    started = true;
    if (stale) {
      const listing = listTools();
      if (listing.length === 0 && !trusted) {
        if (retries++ < EMPTY_LISTING_RETRIES) schedule(EMPTY_LISTING_RETRY_MS);
        return;
      }
      job = index.begin(listing);
      stale = false;
      trusted = true;
    }
    if (!job) return;
    if (!job.step(performance.now() + INDEX_SLICE_MS)) return schedule();
    job = undefined;
    afterBuild?.();
  }
  schedule(idleDelay);

  return {
    markStale() {
      stale = true;
      trusted = true;
      if (!started) return;
      cancel();
      schedule();
    },
    current() {
      const empty: IndexUpdate = { added: 0, changed: 0, removed: 0 };
      if (!started) cancel();
      started = true;
      if (stale || !trusted) {
        cancel();
        job = index.begin(listTools());
        stale = false;
        trusted = true;
      }
      if (!job) return empty;
      job.step(Number.POSITIVE_INFINITY);
      const { result } = job;
      job = undefined;
      return result;
    },
    close() {
      closed = true;
      cancel();
    },
  };
}
