/**
 * Arguments a plugin hands over to the pipeline: an object nobody else holds (a fresh `JSON.parse`
 * of a frame, as code mode's calls are), which the pipeline may give the tool as it is instead of
 * snapshotting it through a JSON round trip. Internal: not part of the plugin contract.
 *
 * One slot, held only while `callTool` runs synchronously (its input snapshot comes before its
 * first await in the common case): a call that first waits (an admission, a missing tool's
 * resolution) snapshots as before, and the object can never be taken by a later call.
 */
let handedOver: object | undefined;

/**
 * Start `call` with `args` handed over. Only for a plain object made by `JSON.parse` that the
 * caller drops: it then holds only JSON values, and nobody can change it under the tool.
 *
 * @example
 * const args = JSON.parse(line).args;
 * const result = await callWithArgumentsHandedOver(args, () => context.callTool(name, args));
 */
export function callWithArgumentsHandedOver<Result>(args: unknown, call: () => Result): Result {
  handedOver = args !== null && typeof args === "object" ? args : undefined;
  try {
    return call();
  } finally {
    handedOver = undefined;
  }
}

/** Whether `args` is the object handed over for the call starting now; it is then taken. */
export function takeHandedOver(args: object): boolean {
  if (handedOver !== args) return false;
  handedOver = undefined;
  return true;
}
