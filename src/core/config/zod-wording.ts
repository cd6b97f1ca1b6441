/**
 * zod's issues in words (zod-issues.ts), loaded on demand: that module imports zod, which a
 * well-formed project never needs at start. Loaded before any path that may word an issue.
 */
type ZodWording = typeof import("./zod-issues.js");

let wording: ZodWording | undefined;

export async function loadZodWording(): Promise<ZodWording> {
  wording ??= await import("./zod-issues.js");
  return wording;
}

/** The wording, once `loadZodWording` has run. */
export function loadedZodWording(): ZodWording {
  if (wording === undefined) throw new Error("Internal error: zod's issues were to be worded before loadZodWording");
  return wording;
}
