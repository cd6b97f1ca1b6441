/**
 * The OpenTelemetry API, loaded only once something has registered with it. Registering anything (a
 * tracer, meter or propagator provider, a context manager, a diag logger) goes through the API's
 * global slot, `globalThis[Symbol.for("opentelemetry.js.api.1")]`; while that slot is empty every
 * API call answers a no-op, so toolexec has nothing to ask and need not load the API's ~45 modules
 * (~20 ms of CPU at start). `import` and `require` resolve the API to the same CommonJS build, so
 * this is the very module a host's `import "@opentelemetry/api"` gets.
 */
import { createRequire } from "node:module";

export type OpenTelemetryApi = typeof import("@opentelemetry/api");

/** The API's global slot for major version 1, the version toolexec depends on. */
const GLOBAL_SLOT = Symbol.for("opentelemetry.js.api.1");
const requireApi = createRequire(import.meta.url);
let loaded: OpenTelemetryApi | undefined;

/**
 * The API when anyone registered with it (checked per call: a host may register after
 * `createExecutor`), else undefined: nobody listens, and nothing recorded would go anywhere.
 *
 * @example
 * const api = registeredOpenTelemetry();
 * api?.trace.getActiveSpan()?.setAttribute("process.pid", pid);
 */
export function registeredOpenTelemetry(): OpenTelemetryApi | undefined {
  if (loaded === undefined && (globalThis as Record<symbol, unknown>)[GLOBAL_SLOT] !== undefined) loaded = requireApi("@opentelemetry/api") as OpenTelemetryApi;
  return loaded;
}
