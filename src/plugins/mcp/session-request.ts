/**
 * One request on a live session, ended by whichever comes first: the answer, the caller's abort,
 * the SDK's timeout, or the session's own watchers (a stream that ended, a reset). A request ended
 * here while the session lives on is withdrawn from the SDK, and so from the server.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { z } from "zod";
import { abortReasonCode } from "../../core/plugin-contract.js";
import type { SessionRequestOptions } from "./mcp-session.js";
import type { RequestOutcome } from "./pending-requests.js";
import { createRequestSignal } from "./request-signal.js";
import { startRequestTelemetry } from "./request-telemetry.js";
import { classifyError, type SessionFailure } from "./session-failure.js";
import type { SessionRun } from "./session-run.js";

const abortedFailure = (signal: AbortSignal): SessionFailure => ({
  kind: "aborted",
  code: abortReasonCode(signal),
  message: (signal.reason as Error)?.message ?? "The call was aborted",
});

export async function sendSessionRequest<Schema extends z.ZodType>(
  run: SessionRun,
  client: Client,
  request: { method: string; params?: Record<string, unknown> },
  schema: Schema,
  requestOptions: SessionRequestOptions,
): Promise<RequestOutcome<z.infer<Schema>>> {
  const { requests } = run;
  if (!run.alive) return { ok: false, failure: { kind: "not-sent", sessionLost: true, message: `${run.server} is not connected` } };
  const caller = requestOptions.signal;
  if (caller?.aborted) return { ok: false, failure: abortedFailure(caller) };
  // A signal of the session's own, so a request ended here (not by the caller) can be withdrawn
  // from the SDK. The caller's abort is forwarded by hand: AbortSignal.any costs a WeakRef and
  // a FinalizationRegistry entry per request on Node 20, which shows in every call's time.
  const local = createRequestSignal();
  const forward = () => local.abort(caller!.reason);
  caller?.addEventListener("abort", forward, { once: true });
  const telemetry = startRequestTelemetry(run, request);
  if (telemetry) request = telemetry.request;
  const pending = requests.begin(requestOptions.onProgress);
  const { progressToken } = pending;
  try {
    // Our own progress token (not the SDK's `onprogress`), so progress is routed in arrival order.
    const sent = progressToken === undefined ? request : { ...request, params: { ...request.params, _meta: { ...(request.params?._meta as object | undefined), progressToken } } };
    let answer: Promise<unknown>;
    try {
      answer = client.request(sent as never, schema as never, { signal: local.signal, timeout: requestOptions.timeoutMs });
    } finally {
      requests.sentAll();
    }
    answer.then(
      (value) => pending.answer({ ok: true, value }),
      (error: unknown) => {
        if (caller?.aborted) return pending.answer({ ok: false, failure: abortedFailure(caller) });
        const status = pending.status !== undefined && pending.status >= 400 ? { httpStatus: pending.status, retryAfterMs: pending.retryAfterMs } : {};
        pending.answer({ ok: false, failure: classifyError(error, { server: run.entry.name, ...status }) });
      },
    );
    const outcome = (await pending.outcome) as RequestOutcome<z.infer<Schema>>;
    // Ended here while the session lives on: tell the SDK (and the server) to forget the request.
    if (pending.settledHere && run.alive && !outcome.ok) local.abort(new Error(outcome.failure.message));
    telemetry?.end(outcome);
    return outcome;
  } finally {
    caller?.removeEventListener("abort", forward);
    requests.end(pending);
  }
}
