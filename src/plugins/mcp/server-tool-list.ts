/**
 * A server's tool list as the executor serves it: the server's listing less what `includeTools` /
 * `excludeTools` leave out. Listeners hear of a change only when a definition really changed.
 */
import { createListeners } from "./listeners.js";
import type { ServerTool } from "./tool-definitions.js";

export interface ServerToolList {
  current(): ServerTool[];
  /** Take a new listing (filtered here); listeners are told when it differs from the current one. */
  set(listed: ServerTool[]): void;
  /** Returns the unsubscribe function. */
  onChanged(listener: () => void): () => void;
  /** Forget every listener (the connection closed). */
  clearListeners(): void;
}

export function createServerToolList(selectTools: ((tools: ServerTool[]) => ServerTool[]) | undefined): ServerToolList {
  let tools: ServerTool[] = [];
  let toolsKey = "[]";
  const changed = createListeners();
  return {
    current: () => tools,
    set(listed) {
      const next = selectTools?.(listed) ?? listed;
      const key = JSON.stringify(next.map((tool) => tool.definition));
      if (key === toolsKey) return;
      toolsKey = key;
      tools = next;
      changed.notify();
    },
    onChanged: changed.add,
    clearListeners: changed.clear,
  };
}
