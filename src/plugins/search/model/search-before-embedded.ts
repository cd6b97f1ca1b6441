/**
 * A search with the model before every tool has its vector (the first search, or the first after
 * many new tools). Rather than wait for all of them — minutes at 1,000 tools on a busy machine —
 * it embeds tools in the order of their lexical scores until no tool left could reach the results:
 * a tool's fused score is its lexical share (at most 1, see `modelLexicalScale`) plus the weight
 * times its cosine, and a cosine is at most 1; a clear lexical leader keeps first place. The ranking is the one a fully embedded index gives; the other
 * tools are embedded afterwards, in the background, and cached on disk like the rest.
 */
import { lexicalLeader, lexicalScores, modelLexicalScale } from "../rank-tools.js";
import type { Similarities } from "../semantic-index.js";
import type { ToolDocument } from "../tool-document.js";
import type { IndexStatistics } from "../tool-index.js";
import { MODEL_BATCH_SIZE, type SearchModel } from "./search-model.js";

/** Scores are rounded to 4 decimals in results: a tool left out must fall short by more than that. */
const ROUNDING_MARGIN = 1e-4;

const dot = (left: ArrayLike<number>, right: ArrayLike<number>) => {
  let sum = 0;
  for (let at = 0; at < left.length; at++) sum += (left[at] as number) * (right[at] as number);
  return sum;
};

/** Keep the `limit` highest of a list sorted from high to low. */
function insertTop(top: number[], value: number, limit: number): void {
  let at = top.length;
  while (at > 0 && (top[at - 1] as number) < value) at--;
  top.splice(at, 0, value);
  if (top.length > limit) top.pop();
}

/**
 * The request's cosine to the tools that can reach the best `limit` (0 for the others), embedding
 * only those; undefined when every tool is needed (no word of the request matches enough of them),
 * and the caller embeds them all.
 *
 * @example
 * const similarities = await similaritiesBeforeEmbedded(index, "open a ticket", 10, model, 0.25);
 */
export async function similaritiesBeforeEmbedded(index: IndexStatistics, query: string, limit: number, model: SearchModel, weight: number): Promise<Similarities | undefined> {
  const lexical = lexicalScores(index, query);
  const { matched, scores, best } = lexical;
  // Fewer matches than results: the rest of the results are chosen by the model alone, from every tool.
  if (best <= 0 || matched.length < limit) return undefined;
  const scale = modelLexicalScale(lexical);
  const share = (document: ToolDocument) => (scores[document.slot] as number) * scale;
  // A clear lexical leader is placed first whatever it scores; the others compete for the rest.
  const leader = lexicalLeader(lexical);
  const places = leader ? limit - 1 : limit;
  const order = [...matched].sort((left, right) => share(right) - share(left));
  const [request] = await model.embedQuery([query]);
  if (!request) return undefined;
  const bySlot = new Float32Array(index.capacity);
  const top: number[] = [];
  for (let next = 0; ; next += MODEL_BATCH_SIZE) {
    // The most a tool not embedded yet can score: the best lexical share left (0 past the matched tools), plus the weight.
    const rest = (next < order.length ? share(order[next] as ToolDocument) : 0) + weight;
    // With no place to compete for, the first batch still gives the leader its cosine, so its score is the one a full index gives.
    const settled = places === 0 ? next > 0 : top.length === places && rest < (top[places - 1] as number) - ROUNDING_MARGIN;
    if (settled) return { bySlot, mean: 0, best: 0 };
    if (next >= order.length) return undefined;
    const batch = order.slice(next, next + MODEL_BATCH_SIZE);
    const vectors = await model.embedTools(batch.map((document) => document.modelText));
    batch.forEach((document, at) => {
      const similarity = dot(request, vectors[at] as Float32Array);
      bySlot[document.slot] = similarity;
      if (document !== leader) insertTop(top, share(document) + weight * similarity, places);
    });
  }
}
