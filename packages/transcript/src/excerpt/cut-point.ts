// Where the budget's cut may fall: never inside a surrogate pair, at a line end when it can.
import type { BodyText } from './body-text.js';

/** An index near `index` that does not split a surrogate pair. */
export function safeCut(
  text: Pick<BodyText, 'length' | 'charCodeAt'>,
  index: number,
  forward = false,
): number {
  const i = Math.max(0, Math.min(text.length, index));
  const code = text.charCodeAt(i);
  if (i > 0 && i < text.length && code >= 0xdc00 && code <= 0xdfff) return forward ? i + 1 : i - 1;
  return i;
}

/**
 * The end of a head of at most `headChars`: after its last line feed; a first line longer
 * than that is cut inside the line, never in a pair.
 */
export function headEnd(
  body: Pick<BodyText, 'length' | 'charCodeAt' | 'lastIndexOf'>,
  headChars: number,
): number {
  const end = body.lastIndexOf('\n', headChars - 1) + 1;
  return end === 0 ? safeCut(body, headChars) : end;
}
