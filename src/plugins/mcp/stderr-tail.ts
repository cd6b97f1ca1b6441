/**
 * What a stdio server wrote to stderr, kept for the reason it failed: a bounded tail, and from it
 * the lines that tell the cause. The last line is often noise (`npm error A complete log of this
 * run can be found in: …`, a start-up banner), while the cause sits a few lines up: `npm error 404
 * Not Found …`, the last line of a Python traceback, an `Error:` line.
 */

/** Kept of a server's stderr. */
const STDERR_TAIL_BYTES = 8192;
/** Quoted of it in a reason. */
const SUMMARY_CHARS = 300;

/**
 * Lines that name a cause, most telling first. npm states the cause first and repeats it after;
 * elsewhere the last match is the nearest to the failure (the last line of a traceback).
 */
const TELLING: Array<{ pattern: RegExp; pick: "first" | "last" }> = [
  { pattern: /^npm (error|ERR!) \d{3} \S/i, pick: "first" },
  { pattern: /^npm (error|ERR!) (?!A complete log|Log files|code\b)\S/i, pick: "first" },
  { pattern: /^([\w.]+\.)?\w*(Error|Exception)\b[^:]*:/, pick: "last" },
  { pattern: /\b(error|fatal|panic)\b/i, pick: "last" },
];

/** The most telling line of `text`, or its last line when none stands out (unless `errorsOnly`). */
export function tellingLines(text: string, errorsOnly = false): string | undefined {
  const lines = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== "");
  if (lines.length === 0) return undefined;
  for (const { pattern, pick } of TELLING) {
    const matching = lines.filter((line) => pattern.test(line));
    if (matching.length > 0) return shorten(pick === "first" ? matching[0]! : matching[matching.length - 1]!);
  }
  return errorsOnly ? undefined : shorten(lines[lines.length - 1]!);
}

const shorten = (text: string) => (text.length > SUMMARY_CHARS ? `${text.slice(0, SUMMARY_CHARS - 3)}...` : text);

export interface StderrTail {
  append(chunk: Buffer): void;
  /** The telling lines; with `errorsOnly`, nothing unless a line names an error (a banner says nothing after SIGKILL). */
  summary(errorsOnly: boolean): string | undefined;
}

export function createStderrTail(): StderrTail {
  let tail = "";
  return {
    append(chunk) {
      tail = (tail + chunk.toString("utf8")).slice(-STDERR_TAIL_BYTES);
    },
    summary: (errorsOnly) => tellingLines(tail, errorsOnly),
  };
}

/**
 * How a stdio server ended, in words: `exited with code 1: <stderr>`, `exited (killed by SIGKILL)`.
 *
 * @example
 * describeExit(1, null, "npm error 404 Not Found - GET https://registry.npmjs.org/nope");
 */
export function describeExit(code: number | null, signal: NodeJS.Signals | null, stderr: string | undefined): string {
  const how = signal ? `exited (killed by ${signal})` : `exited with code ${code ?? "unknown"}`;
  return stderr ? `${how}: ${stderr}` : how;
}
