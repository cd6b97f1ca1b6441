/**
 * A plugin's answer to one call, as the pipeline takes it: checked for shape (a malformed answer or a
 * throw is `PLUGIN_FAILED`), and raced against the call's abort, after which the plugin gets a short
 * grace to answer with its own details before the abort's code answers.
 */
import type { ToolexecError } from "../errors/toolexec-error.js";
import type { PluginResult } from "../plugin-contract.js";
import { toolError } from "../tool-result.js";
import type { RunningCall } from "./call-pipeline.js";

/** After the deadline or a cancel, how long a plugin gets to answer with its own details. */
export const ABORT_GRACE_MS = 50;

function checkResultShape(result: unknown, plugin: string): PluginResult {
  const candidate = result as { ok?: unknown; error?: { code?: unknown; message?: unknown } } | null;
  if (candidate?.ok === true) return candidate as PluginResult;
  if (candidate?.ok === false && typeof candidate.error?.code === "string" && typeof candidate.error.message === "string") return candidate as PluginResult;
  return toolError("PLUGIN_FAILED", `Plugin "${plugin}" returned a malformed result: expected { ok: true, value } or { ok: false, error: { code, message } }`);
}

/**
 * The plugin's answer, or — once the call is aborted and a short grace passes — the abort's own.
 * The pipeline aborts calls itself, so it hooks the abort directly instead of listening on the signal.
 */
export function answerOrAbort(running: RunningCall, plugin: string, name: string, start: () => Promise<PluginResult>): Promise<PluginResult> {
  return new Promise<PluginResult>((resolve) => {
    let settled = false;
    let graceTimer: NodeJS.Timeout | undefined;
    const settle = (result: PluginResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(graceTimer);
      running.onAbort = undefined;
      resolve(result);
    };
    const failed = (error: unknown) => settle(toolError("PLUGIN_FAILED", `Plugin "${plugin}" threw while calling "${name}": ${(error as Error)?.message ?? String(error)}`));
    running.onAbort = (reason) => {
      graceTimer = setTimeout(() => settle(toolError(reason.code, reason.message)), ABORT_GRACE_MS);
    };
    const signal = running.controller.signal;
    if (signal.aborted) running.onAbort(signal.reason as ToolexecError);
    let work: Promise<PluginResult>;
    try {
      work = start();
    } catch (error) {
      return failed(error);
    }
    Promise.resolve(work).then((result) => settle(checkResultShape(result, plugin)), failed);
  });
}
