/**
 * A `tokenizer.json` for a BERT WordPiece `vocab.txt`, for model folders that ship only the
 * vocabulary (older sentence-transformers exports): lower-casing, BERT's pre-tokenizer, `[CLS] … [SEP]`.
 */

/** The tokenizer.json equivalent of a BERT uncased `vocab.txt` (one token per line, id = line number). */
export function wordPieceTokenizerJson(vocabularyText: string): Record<string, unknown> {
  const vocabulary: Record<string, number> = {};
  vocabularyText.split(/\r?\n/).forEach((token, id) => {
    if (token !== "" && !(token in vocabulary)) vocabulary[token] = id;
  });
  const special = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"].filter((token) => token in vocabulary);
  const token = (id: string) => ({ id, ids: [vocabulary[id] as number], tokens: [id] });
  return {
    version: "1.0",
    added_tokens: special.map((content) => ({ id: vocabulary[content], content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [{ SpecialToken: { id: "[CLS]", type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: "[SEP]", type_id: 0 } }],
      pair: [{ SpecialToken: { id: "[CLS]", type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: "[SEP]", type_id: 0 } }, { Sequence: { id: "B", type_id: 1 } }, { SpecialToken: { id: "[SEP]", type_id: 1 } }],
      special_tokens: { "[CLS]": token("[CLS]"), "[SEP]": token("[SEP]") },
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: { type: "WordPiece", unk_token: "[UNK]", continuing_subword_prefix: "##", max_input_chars_per_word: 100, vocab: vocabulary },
  };
}
