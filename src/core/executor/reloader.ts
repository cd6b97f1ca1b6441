/**
 * Runs config reloads one at a time: a change that lands during a reload triggers one more, and a
 * reload never rejects for a bad config (it keeps the last good one and reports it); it rejects
 * only after the executor closed.
 */
import { ToolexecError, isToolexecError } from "../errors/toolexec-error.js";

/** What `reload()` did: the plugins it restarted, or why the new config was rejected (the last good one still runs). */
export type ReloadResult = { ok: true; restarted: string[] } | { ok: false; error: ToolexecError };

export interface ReloaderOptions {
  isClosed(): boolean;
  /** Load and apply the config; resolves to the names of the plugins that restarted. */
  apply(): Promise<string[]>;
  /** A reload failed; the last good config stays in force. */
  onRejected(error: ToolexecError): void;
}

export interface Reloader {
  reload(): Promise<ReloadResult>;
  /** Resolves once no reload is under way. */
  settled(): Promise<void>;
}

export function createReloader(options: ReloaderOptions): Reloader {
  let reloading: Promise<ReloadResult> | undefined;
  let again = false;

  const reloadOnce = async (): Promise<ReloadResult> => {
    try {
      return { ok: true, restarted: await options.apply() };
    } catch (thrown) {
      const error = isToolexecError(thrown)
        ? thrown
        : new ToolexecError("PLUGIN_FAILED", `Reload failed: ${(thrown as Error)?.message ?? String(thrown)}`, { cause: thrown });
      options.onRejected(error);
      return { ok: false, error };
    }
  };

  return {
    reload() {
      if (options.isClosed()) return Promise.reject(new ToolexecError("EXECUTOR_CLOSED", "Cannot reload: the executor is closed"));
      if (reloading) {
        again = true;
        return reloading;
      }
      reloading = (async () => {
        let result: ReloadResult;
        do {
          again = false;
          result = await reloadOnce();
        } while (again && !options.isClosed());
        reloading = undefined;
        return result;
      })();
      return reloading;
    },
    async settled() {
      await reloading?.catch(() => undefined);
    },
  };
}
