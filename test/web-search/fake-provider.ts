/**
 * A local stand-in for a web search provider: a real node:http server on 127.0.0.1 that answers in
 * the provider's documented wire format (Brave Search, Tavily, SearXNG), including their error
 * bodies and rate-limit headers. Each test scripts the answers in order; every request is recorded.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";

export type ProviderName = "brave" | "tavily" | "searxng";

/** One scripted answer: a status, headers and a body (objects are sent as JSON), or "hang" (never answered). */
export type Answer = { status?: number; headers?: Record<string, string>; body?: unknown } | "hang";

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** An answer, or a function that picks one for each request. */
export type ScriptedAnswer = Answer | ((request: RecordedRequest) => Answer);

export interface FakeProvider {
  url: string;
  requests: RecordedRequest[];
  /** Queue answers (or a function choosing one per request); once the queue is empty every request gets the last one again. */
  answer(...answers: ScriptedAnswer[]): void;
  close(): Promise<void>;
}

const opened: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((provider) => provider.close()));
});

/** Start a fake provider on 127.0.0.1; it is closed after each test. */
export async function startFakeProvider(): Promise<FakeProvider> {
  const queue: ScriptedAnswer[] = [];
  let last: ScriptedAnswer = { status: 500, body: "no answer scripted" };
  const requests: RecordedRequest[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1");
      const recorded = { method: request.method ?? "", path: url.pathname, query: url.searchParams, headers: request.headers, body: Buffer.concat(chunks).toString() };
      requests.push(recorded);
      const scripted = queue.shift() ?? last;
      last = scripted;
      const answer = typeof scripted === "function" ? scripted(recorded) : scripted;
      if (answer === "hang") return;
      const body = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body ?? {});
      response.writeHead(answer.status ?? 200, { "content-type": "application/json", ...answer.headers });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const provider: FakeProvider = {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer: (...answers) => {
      queue.push(...answers);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  opened.push(provider);
  return provider;
}

/** A page as the tests' results: title, url, snippet, and a date. */
export interface Page {
  title: string;
  url: string;
  snippet: string;
  date?: string;
}

export const PAGES: Page[] = [
  { title: "Node.js 22 released", url: "https://nodejs.org/en/blog/release/v22.0.0", snippet: "Node.js 22 is out with require(esm).", date: "2024-04-24T12:00:00.000Z" },
  { title: "What's new in Node 22", url: "https://example.com/node-22", snippet: "A tour of the release." },
  { title: "Node release schedule", url: "https://github.com/nodejs/release", snippet: "When each line is supported." },
];

/** A successful answer in the provider's documented shape. */
export function successBody(provider: ProviderName, pages: Page[] = PAGES): unknown {
  if (provider === "brave") {
    return {
      type: "search",
      query: { original: "node 22", more_results_available: false },
      web: {
        type: "search",
        results: pages.map((page) => ({
          type: "search_result",
          title: page.title,
          url: page.url,
          // Brave marks the query's words in its snippets.
          description: page.snippet.replace("Node.js", "<strong>Node.js</strong>"),
          ...(page.date ? { page_age: page.date, age: "April 24, 2024" } : {}),
        })),
      },
    };
  }
  if (provider === "tavily") {
    return {
      query: "node 22",
      answer: null,
      images: [],
      results: pages.map((page, index) => ({ title: page.title, url: page.url, content: page.snippet, score: 0.9 - index / 10, raw_content: null, ...(page.date ? { published_date: page.date } : {}) })),
      response_time: 0.5,
    };
  }
  return {
    query: "node 22",
    number_of_results: 0,
    results: pages.map((page, index) => ({ url: page.url, title: page.title, content: page.snippet, engine: "duckduckgo", engines: ["duckduckgo"], positions: [index + 1], score: 1, category: "general", publishedDate: page.date ?? null })),
    answers: [],
    corrections: [],
    infoboxes: [],
    suggestions: [],
    unresponsive_engines: [],
  };
}

/** The provider's documented error body for a status. */
export function errorBody(provider: ProviderName, status: number, message: string): unknown {
  if (provider === "brave") {
    return { type: "ErrorResponse", error: { id: "5d832250-9396-4f6e-b84a-2a1fe524cd7d", status, code: status === 429 ? "RATE_LIMITED" : "ERROR", detail: message, meta: {} }, time: 1663072993 };
  }
  if (provider === "tavily") return { detail: { error: message } };
  return `<html><body><h1>${status}</h1><p>${message}</p></body></html>`;
}
