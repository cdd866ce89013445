/** Lines kept from a cut middle because a model usually needs them to act. */
export const ERROR_LINE_PATTERN = /error|exception|traceback|fatal|failed|panic/i;

/** Longest error line kept from a cut middle; the rest of that line is left out. */
export const MAX_ERROR_LINE_CHARS = 400;

/** Longest word ERROR_LINE_PATTERN matches: a piece of a line is tested with this much before it. */
export const ERROR_WORD_CHARS = 9;

/**
 * Letters of which every error word holds one (eRror, excePtion, tRaceback, Fatal, Failed,
 * Panic), in both cases: a text with none of them holds no error word, found by a native
 * search for each instead of lower-casing the text (a flood of one letter, 6 searches).
 */
export const ERROR_WORD_LETTERS = ['r', 'R', 'f', 'F', 'p', 'P'] as const;

/** Whether `text` holds a letter of ERROR_WORD_LETTERS (without one it holds no error word). */
export function holdsErrorWordLetter(text: string): boolean {
  for (const letter of ERROR_WORD_LETTERS) if (text.includes(letter)) return true;
  return false;
}
