/** `toolexec serve --http` as a real process (the built CLI), and SDK v2 clients speaking 2026-07-28 to it. */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { execa, type ResultPromise } from "execa";
import { TOOLEXEC_BIN } from "../../helpers/toolexec-bin.mjs";

export const CLI = TOOLEXEC_BIN;
/** A shared HMAC key, as replicas get it from their environment. */
export const SHARED_KEY = "k".repeat(16) + "shared-between-replicas";
export const MODERN = "2026-07-28";

export interface ServeProcess {
  url: string;
  child: ResultPromise;
  stop(): Promise<void>;
}

/** Starts `toolexec serve --http` on a free port; resolves once it printed its URL (its sign it listens). */
export async function startServe(root: string, env: Record<string, string> = {}, flags: string[] = []): Promise<ServeProcess> {
  const child = execa(process.execPath, [CLI, "serve", "--http", "--root", root, ...flags], { reject: false, stdin: "ignore", env: { TOOLEXEC_REQUEST_STATE_KEY: SHARED_KEY, ...env } });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
    void child.then((result) => reject(new Error(`serve exited: ${result.stderr}`)));
  });
  return {
    url,
    child,
    async stop() {
      child.kill("SIGTERM");
      await child;
    },
  };
}

/** What a 2026 client answers when asked (the person's answer), and what it saw go by. */
export interface ModernClientOptions {
  answer?: string;
  /** Routes one request: the URL to send it to (a load balancer's choice). Default: where it was going. */
  route?: (body: string, url: string) => string;
  seen?: { url: string; body: string; status: number; sessionHeader: string | null }[];
}

/** A v2 SDK client pinned to 2026-07-28, with elicitation answered by `answer`. */
export async function modernClient(url: string, options: ModernClientOptions = {}): Promise<Client> {
  const client = new Client({ name: "modern-test", version: "2.0.0" }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: MODERN } } });
  client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { answer: options.answer ?? "yes" } }));
  const fetchThrough = async (input: string | URL | Request, init?: RequestInit) => {
    const body = typeof init?.body === "string" ? init.body : "";
    const target = options.route ? options.route(body, String(input)) : String(input);
    const response = await fetch(target, init);
    options.seen?.push({ url: target, body, status: response.status, sessionHeader: response.headers.get("mcp-session-id") });
    return response;
  };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: fetchThrough as typeof fetch }));
  return client;
}
