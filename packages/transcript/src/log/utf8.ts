// Character arithmetic over UTF-16 strings for the log.

interface WellFormedString {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

/**
 * Replaces lone surrogates with U+FFFD, as UTF-8 encoding would. Byte counts then match what
 * the string holds, so offsets stay exact. Free for one-byte strings (V8 answers at once).
 */
export function wellFormed(text: string): string {
  const candidate = text as unknown as WellFormedString;
  return candidate.isWellFormed() ? text : candidate.toWellFormed();
}

/** The last `count` code points of `text` (a surrogate pair is one character, never halved). */
export function lastCharacters(text: string, count: number): string {
  let index = text.length;
  let seen = 0;
  while (index > 0 && seen < count) {
    const code = text.charCodeAt(index - 1);
    const isPair =
      code >= 0xdc00 && code <= 0xdfff && index >= 2 && isHighSurrogate(text.charCodeAt(index - 2));
    index -= isPair ? 2 : 1;
    seen += 1;
  }
  return index === 0 ? text : text.slice(index);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
