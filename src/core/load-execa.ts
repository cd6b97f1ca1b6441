/**
 * execa, loaded when the first process is started rather than at import: its ~100 modules cost about
 * 70 ms of CPU (bench/startup.mjs), which a host that only lists or serves tools need not pay.
 */
type Execa = typeof import("execa").execa;

let loaded: Execa | undefined;

/** execa's `execa` function; the module is imported once, on the first call. */
export async function loadExeca(): Promise<Execa> {
  return (loaded ??= (await import("execa")).execa);
}
