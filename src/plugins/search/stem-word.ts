/**
 * The Porter stemmer (M. F. Porter, 1980), written out here: it maps "searching", "searches" and
 * "searched" to one stem so a query and a description meet whatever the word's ending. Written
 * locally because the ranker runs embedded, with no download and no dependency.
 */

const STEP2_SUFFIXES: ReadonlyArray<readonly [string, string]> = [
  ["ational", "ate"], ["tional", "tion"], ["enci", "ence"], ["anci", "ance"], ["izer", "ize"], ["bli", "ble"],
  ["alli", "al"], ["entli", "ent"], ["eli", "e"], ["ousli", "ous"], ["ization", "ize"], ["ation", "ate"],
  ["ator", "ate"], ["alism", "al"], ["iveness", "ive"], ["fulness", "ful"], ["ousness", "ous"], ["aliti", "al"],
  ["iviti", "ive"], ["biliti", "ble"], ["logi", "log"],
];
const STEP3_SUFFIXES: ReadonlyArray<readonly [string, string]> = [
  ["icate", "ic"], ["ative", ""], ["alize", "al"], ["iciti", "ic"], ["ical", "ic"], ["ful", ""], ["ness", ""],
];
const STEP4_SUFFIXES = ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ou", "ism", "ate", "iti", "ous", "ive", "ize"];

function isConsonant(word: string, index: number): boolean {
  const letter = word[index];
  if ("aeiou".includes(letter as string)) return false;
  if (letter === "y") return index === 0 ? true : !isConsonant(word, index - 1);
  return true;
}

/** Porter's m: the number of vowel-consonant sequences in `stem`. */
function measure(stem: string): number {
  let count = 0;
  let index = 0;
  while (index < stem.length && isConsonant(stem, index)) index++;
  while (index < stem.length) {
    while (index < stem.length && !isConsonant(stem, index)) index++;
    if (index >= stem.length) break;
    while (index < stem.length && isConsonant(stem, index)) index++;
    count++;
  }
  return count;
}

function hasVowel(stem: string): boolean {
  for (let index = 0; index < stem.length; index++) if (!isConsonant(stem, index)) return true;
  return false;
}

function endsWithDoubleConsonant(word: string): boolean {
  const last = word.length - 1;
  return last >= 1 && word[last] === word[last - 1] && isConsonant(word, last);
}

/** Consonant-vowel-consonant at the end, the last not w, x or y ("hop", not "how"). */
function endsConsonantVowelConsonant(word: string): boolean {
  const last = word.length - 1;
  if (last < 2) return false;
  return isConsonant(word, last) && !isConsonant(word, last - 1) && isConsonant(word, last - 2) && !"wxy".includes(word[last] as string);
}

function replaceSuffix(word: string, pairs: ReadonlyArray<readonly [string, string]>, minimumMeasure: number): string {
  for (const [suffix, replacement] of pairs) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length);
    return measure(stem) > minimumMeasure ? stem + replacement : word;
  }
  return word;
}

function step1(word: string): string {
  if (word.endsWith("sses")) word = word.slice(0, -2);
  else if (word.endsWith("ies")) word = word.slice(0, -2);
  else if (!word.endsWith("ss") && word.endsWith("s")) word = word.slice(0, -1);

  if (word.endsWith("eed")) {
    if (measure(word.slice(0, -3)) > 0) word = word.slice(0, -1);
  } else {
    const suffix = word.endsWith("ed") ? "ed" : word.endsWith("ing") ? "ing" : undefined;
    if (suffix && hasVowel(word.slice(0, -suffix.length))) {
      word = word.slice(0, -suffix.length);
      if (word.endsWith("at") || word.endsWith("bl") || word.endsWith("iz")) word += "e";
      else if (endsWithDoubleConsonant(word) && !"lsz".includes(word[word.length - 1] as string)) word = word.slice(0, -1);
      else if (measure(word) === 1 && endsConsonantVowelConsonant(word)) word += "e";
    }
  }
  if (word.endsWith("y") && hasVowel(word.slice(0, -1))) word = `${word.slice(0, -1)}i`;
  return word;
}

function step4(word: string): string {
  for (const suffix of STEP4_SUFFIXES) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length);
    return measure(stem) > 1 ? stem : word;
  }
  if (word.endsWith("ion")) {
    const stem = word.slice(0, -3);
    if (measure(stem) > 1 && (stem.endsWith("s") || stem.endsWith("t"))) return stem;
  }
  return word;
}

function step5(word: string): string {
  if (word.endsWith("e")) {
    const stem = word.slice(0, -1);
    const stemMeasure = measure(stem);
    if (stemMeasure > 1 || (stemMeasure === 1 && !endsConsonantVowelConsonant(stem))) word = stem;
  }
  if (measure(word) > 1 && endsWithDoubleConsonant(word) && word.endsWith("l")) word = word.slice(0, -1);
  return word;
}

/**
 * The stem of one lower-case English word; words of one or two letters, and words with digits,
 * are left as they are.
 *
 * @example
 * stemWord("retrieving"); // "retriev"
 * stemWord("retrieves"); // "retriev"
 */
export function stemWord(word: string): string {
  if (word.length <= 2 || /[^a-z]/.test(word)) return word;
  let stem = step1(word);
  stem = replaceSuffix(stem, STEP2_SUFFIXES, 0);
  stem = replaceSuffix(stem, STEP3_SUFFIXES, 0);
  stem = step4(stem);
  return step5(stem);
}
