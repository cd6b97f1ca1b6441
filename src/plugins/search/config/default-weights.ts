/**
 * The semantic stage's default weights, in their own module so that tools.json's `toolSearch`
 * section can state them without loading the ranking and its tables (~25 ms of CPU at start).
 */

/**
 * How much the semantic stage adds by default, next to the best lexical match's 1: at this weight it
 * only reorders tools within 10% of each other lexically, which is what the embedded word vectors
 * are good for (more of them cost the gold set top-1).
 */
export const DEFAULT_SEMANTIC_WEIGHT = 0.1;

/**
 * How much a sentence model's cosine similarity adds (`toolSearch.model`), next to the best lexical
 * match's 1 at most. Chosen with LEXICAL_LEAD and MODEL_LEXICAL_REFERENCE by cross-validation on
 * the two halves of the dev set, checked on our own two sets of requests (docs/tool-search.md).
 */
export const DEFAULT_MODEL_WEIGHT = 0.5;
