/** Values the command line carries as text: JSON from a flag, a file or stdin, and whole numbers. */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { UsageError } from "./usage-error.js";

/** Read stdin to the end. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** The text of `file` (relative to `cwd`), or stdin for `-`; a file that cannot be read is a usage error. */
export async function readSource(file: string, flag: string, context: { cwd: string; command: string; readStdin(): Promise<string> }): Promise<string> {
  try {
    return file === "-" ? await context.readStdin() : await readFile(path.resolve(context.cwd, file), "utf8");
  } catch (error) {
    throw new UsageError(`Cannot read ${flag} ${file}: ${(error as Error).message}`, context.command);
  }
}

/** `text` parsed as JSON; `source` names it in the message (`--args`, a file name). */
export function parseJson(text: string, source: string, command: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${source} is not valid JSON: ${(error as Error).message}`, command);
  }
}

/** A whole number of at least `minimum`, or undefined when the flag is absent. */
export function parseWholeNumber(text: string | undefined, flag: string, minimum: number, command: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < minimum) throw new UsageError(`${flag} expects a whole number from ${minimum}, got ${JSON.stringify(text)}`, command);
  return value;
}
