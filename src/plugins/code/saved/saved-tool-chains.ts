/**
 * Which saved tools are running in the chain of calls that led to a call: a saved tool's run makes
 * its tool calls inside its chain, so a saved tool called from there (however many other tools sit
 * between, as long as they pass their calls on through `options.callTool`) sees it, and a loop is
 * stopped at a depth limit instead of running until the deadline.
 *
 * It follows the executor's own record of which call led to which (`PluginContext.callChain`),
 * not async context: Node 20's AsyncLocalStorage puts a hook on every promise the host makes, its
 * application's included, once anything runs inside a store (about 0.05 ms of host CPU per
 * three-call composition).
 */

/** Where a call stands among code runs. */
export interface SavedToolChainPosition {
  /** The saved tools running in the chain that led here, outermost first. */
  chain: readonly string[];
  /**
   * Whether a code run made the call (it holds a runtime while it waits for the call): a code run
   * started by it may then borrow a runtime beyond the pool's size, or nesting would deadlock a full pool.
   */
  nested: boolean;
}

export interface SavedToolChains {
  /** The position of call `executionId`, from the nearest code run that led to it. */
  positionOf(executionId: string): SavedToolChainPosition;
  /** Code run `executionId` runs inside `chain` (its own name last when it is a saved tool) until `end`. */
  enter(executionId: string, chain: readonly string[]): void;
  end(executionId: string): void;
}

const TOP_LEVEL: SavedToolChainPosition = { chain: [], nested: false };

/**
 * @example
 * const chains = createSavedToolChains(context.callChain);
 * const { chain, nested } = chains.positionOf(call.executionId);
 */
export function createSavedToolChains(callChain: ((executionId: string) => readonly string[]) | undefined): SavedToolChains {
  const running = new Map<string, readonly string[]>();
  return {
    positionOf(executionId) {
      // No code run under way: no call can come from one (most calls, and every top-level one).
      if (running.size === 0 || callChain === undefined) return TOP_LEVEL;
      for (const ancestor of callChain(executionId)) {
        const chain = running.get(ancestor);
        if (chain !== undefined) return { chain, nested: true };
      }
      return TOP_LEVEL;
    },
    enter(executionId, chain) {
      running.set(executionId, chain);
    },
    end(executionId) {
      running.delete(executionId);
    },
  };
}
