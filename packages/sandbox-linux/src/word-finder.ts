// Where in a stream of output a refusal word may be, found without reading most of it.
// String#indexOf finds a pattern's first character with memchr and only then compares the
// rest, so it costs next to nothing when that character is rare in the text and about a
// regex's price when it is common (measured on 64 MiB: 0.6 ms vs 20-40 ms per word; the old
// one-regex scan 50-180 ms). Each word is therefore searched from its character that is rarest
// in the stream (a suffix of the word): a necessary condition, so no occurrence is missed, and
// the few false candidates are checked in full by the caller.

/** The stream's text between two choices of where each word is searched from. */
const RECHOOSE_EVERY_CHARS = 256 * 1024;
/** Characters sampled, evenly spread over the text, to estimate what is rare in it. */
const SAMPLE = 256;
/** The shortest part of a word searched for (a shorter one finds too many false candidates). */
const MIN_PART = 4;

export class WordFinder {
  readonly #words: readonly string[];
  #parts: string[];
  #sinceChoice = Number.POSITIVE_INFINITY;

  constructor(words: readonly string[]) {
    this.#words = words;
    this.#parts = [...words];
  }

  /**
   * Offsets in `text`, ascending, where a word may lie: each word found in full is among them
   * (at the offset of the part searched, within the same line); a few may be false candidates.
   */
  find(text: string): number[] {
    if (this.#sinceChoice >= RECHOOSE_EVERY_CHARS) {
      this.#parts = this.#words.map((word) => rarestSuffix(word, sampleCounts(text)));
      this.#sinceChoice = 0;
    }
    this.#sinceChoice += text.length;
    let found: number[] | undefined;
    for (const part of this.#parts) {
      for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + 1)) {
        found ??= [];
        found.push(at);
      }
    }
    return found === undefined ? NONE : found.sort((a, b) => a - b);
  }
}

const NONE: number[] = [];

/**
 * How often each character code below 128 appears in a sample of `text`: one character of each
 * of SAMPLE equal strides, at a scattered place in it (a fixed place would see one column of
 * output made of equal lines, and nothing else).
 */
function sampleCounts(text: string): Uint16Array {
  const counts = new Uint16Array(128);
  const stride = Math.max(1, Math.floor(text.length / SAMPLE));
  for (let k = 0; k * stride < text.length; k++) {
    const code = text.charCodeAt(k * stride + ((Math.imul(k + 1, 2654435761) >>> 0) % stride));
    if (code < 128) counts[code]! += 1;
  }
  return counts;
}

/**
 * The suffix of `word` (at least MIN_PART long) whose first character is rarest in the sample;
 * unseen ones tie, and then a character rare in most output (not a lowercase letter, digit or
 * space) wins, then the longest suffix (the fewest false candidates).
 */
export function rarestSuffix(word: string, counts: Uint16Array): string {
  let best = 0;
  let bestScore = Number.POSITIVE_INFINITY;
  for (let i = 0; i <= word.length - MIN_PART; i++) {
    const code = word.charCodeAt(i);
    const score = (code < 128 ? counts[code]! : 0) * 2 + (/[a-z0-9 ]/.test(word[i]!) ? 1 : 0);
    if (score < bestScore) {
      best = i;
      bestScore = score;
    }
  }
  return word.slice(best);
}
