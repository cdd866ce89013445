import { createSimdScan, type SimdScan } from './simd.js';

/** Printable ASCII, tab, CR, LF: text that moves the cursor and writes cells, nothing else. */
const NOT_PLAIN = /[^\t\n\r\x20-\x7e]/;
/** Texts kept for the next caller at most this long: a read, not a replay fed in one piece. */
const MAX_KEPT_CHARS = 256 * 1024;

let simd: SimdScan | undefined | null = null;
// The screen and the transcript ask about the same chunk one after the other; the second
// gets the first's answer. Equal text has the same answer, so a match by value is exact.
let lastText: string | undefined;
let lastFeeds = -1;

/**
 * -1 if `text` holds anything but printable ASCII, tab, CR and LF (an escape sequence, another
 * control, a non-ASCII character); otherwise the number of line feeds in it. Such text only
 * writes cells and moves the cursor, and a transcript counts its lines without stripping it.
 *
 * @example plainLineFeeds('a\r\nb\n') === 2; plainLineFeeds('\x1b[1ma\n') === -1
 */
export function plainLineFeeds(text: string): number {
  if (text === lastText) return lastFeeds;
  if (simd === null) simd = createSimdScan();
  const feeds = simd !== undefined && text.length <= simd.capacity ? simd.scan(text) : plainLineFeedsJs(text);
  if (text.length <= MAX_KEPT_CHARS) {
    lastText = text;
    lastFeeds = feeds;
  }
  return feeds;
}

/** The same answer without WebAssembly: where it is missing, and for texts past its memory. */
export function plainLineFeedsJs(text: string): number {
  if (NOT_PLAIN.test(text)) return -1;
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}
