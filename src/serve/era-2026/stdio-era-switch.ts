/**
 * Over stdio the era is the connection's: its first message decides. A 2026-07-28 client opens
 * with a request carrying the envelope claim (`server/discover` or a call); a 2025-era client with
 * `initialize`. The first line is held until it is complete, then it and everything after flow on
 * to the chosen era's transport unchanged.
 */
import { PassThrough, type Readable } from "node:stream";
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
    // Paused inside the handler, before piping: not one chunk may flow past with no listener.
    stdin.pause();
    stdin.off("data", onData);
    const input = new PassThrough();
    input.write(received);
    stdin.pipe(input);
    onEra(hasEnvelopeClaim(parseLine(received.subarray(0, end))) ? "modern" : "legacy", input);
  };
  stdin.on("data", onData);
  return () => stdin.off("data", onData);
}
