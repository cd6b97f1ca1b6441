/**
 * The redirect end of a login: listens on the loopback redirect URI (127.0.0.1 only), answers the
 * browser's one request with a page saying what happened, and resolves with the code and state.
 */
import http from "node:http";
import { CliError } from "./usage-error.js";

export type RedirectOutcome = { code: string; state?: string } | { error: string };

export interface LoopbackRedirect {
  /** Resolves with the first request to the redirect path; rejects at the deadline or on abort. */
  received: Promise<RedirectOutcome>;
  close(): void;
}

const page = (text: string) => `<!doctype html><meta charset="utf-8"><title>toolexec</title><p>${text}</p>`;

/**
 * @example
 * const redirect = await listenForRedirect(new URL("http://127.0.0.1:33418/callback"), signal, 300_000);
 * const outcome = await redirect.received; // { code, state }
 */
export async function listenForRedirect(redirectUrl: URL, signal: AbortSignal, timeoutMs: number): Promise<LoopbackRedirect> {
  let settle!: (outcome: RedirectOutcome) => void;
  let fail!: (error: Error) => void;
  const received = new Promise<RedirectOutcome>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", redirectUrl);
    if (request.method !== "GET" || url.pathname !== redirectUrl.pathname) {
      response.writeHead(404, { "content-type": "text/html; charset=utf-8" }).end(page("Not the login redirect."));
      return;
    }
    const code = url.searchParams.get("code");
    const error = url.searchParams.get("error");
    const state = url.searchParams.get("state") ?? undefined;
    const text = code ? "Logged in: you can close this tab and go back to the terminal." : "The login did not succeed: see the terminal.";
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page(text));
    if (code) settle({ code, ...(state === undefined ? {} : { state }) });
    else settle({ error: [error ?? "no code in the redirect", url.searchParams.get("error_description")].filter(Boolean).join(": ") });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "EADDRINUSE" ? new CliError(`Port ${redirectUrl.port} (the redirect URI ${redirectUrl.href}) is in use; free it or set another "oauth.callbackPort" in mcp.json`) : error),
    );
    server.listen(Number(redirectUrl.port), "127.0.0.1", resolve);
  });
  const timer = setTimeout(() => fail(new CliError(`No redirect came back within ${timeoutMs} ms; run the command again (--timeout <ms> waits longer)`)), timeoutMs);
  const onAbort = () => fail(new CliError("Interrupted before the redirect came back"));
  signal.addEventListener("abort", onAbort, { once: true });
  const close = () => {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
    server.closeAllConnections();
    server.close();
  };
  received.then(close, close);
  return { received, close };
}
