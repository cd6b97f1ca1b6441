/**
 * Over stdio the era is the connection's: its first message decides. A 2026-07-28 client opens
 * with a request carrying the envelope claim (`server/discover` or a call); a 2025-era client with
 * `initialize`. The first line is held until it is complete, then put back, and the chosen era's
 * transport reads the input from its first byte.
 */
import type { Readable } from "node:stream";
import { hasEnvelopeClaim } from "./request-era.js";

export type ProtocolEra = "legacy" | "modern";

const NEWLINE = 0x0a;

function parseLine(line: Buffer): unknown {
  try {
    return JSON.parse(line.toString("utf8"));
  } catch {
    // Not JSON: the 2025 transport answers it as it always has (a parse error).
    return undefined;
  }
}

/**
 * Calls `onEra` once, when the first line has arrived, with the era and the input to read from
 * (that line included). Returns the function that stops waiting.
 *
 * @example
 * routeStdioByEra(process.stdin, (era, input) => (era === "modern" ? serveModern(input) : serveLegacy(input)));
 */
export function routeStdioByEra(stdin: Readable, onEra: (era: ProtocolEra, input: Readable) => void): () => void {
  const held: Buffer[] = [];
  const onData = (chunk: Buffer | string) => {
    held.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
    const received = Buffer.concat(held);
    const end = received.indexOf(NEWLINE);
    if (end === -1) return;
    // Paused inside the handler, then put back: the chosen transport reads stdin itself from the
    // first byte on, with no stream between (every message of the connection would cross it).
    stdin.pause();
    stdin.off("data", onData);
    stdin.unshift(received);
    // The input flows again once the transport listens (neither SDK's transport resumes a paused stream).
    const resumeOnListen = (event: string | symbol) => {
      if (event !== "data") return;
      stdin.off("newListener", resumeOnListen);
      process.nextTick(() => stdin.resume());
    };
    stdin.on("newListener", resumeOnListen);
    onEra(hasEnvelopeClaim(parseLine(received.subarray(0, end))) ? "modern" : "legacy", stdin);
  };
  stdin.on("data", onData);
  return () => stdin.off("data", onData);
}
