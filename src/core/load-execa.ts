/**
 * execa, loaded when the first process is started rather than at import: its ~100 modules cost about
 * 70 ms of CPU (bench/startup.mjs), which a host that only lists or serves tools need not pay.
 */
type Execa = typeof import("execa").execa;

let loading: Promise<Execa> | undefined;

/**
 * execa's `execa` function; the module is imported once, on the first call. The promise may be
 * started early and dropped (a run refused before its spawn): a failed import is no unhandled
 * rejection, and whoever awaits it still gets the error.
 */
export function loadExeca(): Promise<Execa> {
  if (loading === undefined) {
    loading = import("execa").then((module) => module.execa);
    loading.catch(() => undefined);
  }
  return loading;
}
