/**
 * A fast path may only vouch for what its full check accepts. This runs both over candidates and
 * returns what the fast path vouched for wrongly (each with the full check's refusal), and how many
 * it vouched for at all (so a test can tell a sound fast path from one that vouches for nothing).
 */
export function findFastPathOverreach<Candidate>(
  candidates: Iterable<Candidate>,
  vouches: (candidate: Candidate) => boolean,
  /** Why the full check refuses `candidate`, or undefined when it accepts it. */
  refusal: (candidate: Candidate) => string | undefined,
): { vouched: number; wrong: string[] } {
  let vouched = 0;
  const wrong: string[] = [];
  for (const candidate of candidates) {
    if (!vouches(candidate)) continue;
    vouched++;
    const reason = refusal(candidate);
    if (reason !== undefined) wrong.push(`${JSON.stringify(candidate)}: ${reason}`);
  }
  return { vouched, wrong };
}
