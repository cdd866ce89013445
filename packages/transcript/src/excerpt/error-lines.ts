/** Lines kept from a cut middle because a model usually needs them to act. */
export const ERROR_LINE_PATTERN = /error|exception|traceback|fatal|failed|panic/i;

/** Longest error line kept from a cut middle; the rest of that line is left out. */
export const MAX_ERROR_LINE_CHARS = 400;

/** Longest word ERROR_LINE_PATTERN matches: a piece of a line is tested with this much before it. */
export const ERROR_WORD_CHARS = 9;
