/** A promise with its resolve function outside (Node 20 has no `Promise.withResolvers`). */
export interface Deferred<Value = void> {
  promise: Promise<Value>;
  resolve(value: Value): void;
}

export function deferred<Value = void>(): Deferred<Value> {
  let resolve!: (value: Value) => void;
  const promise = new Promise<Value>((settle) => (resolve = settle));
  return { promise, resolve };
}
