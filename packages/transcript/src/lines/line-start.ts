import { createAnsiStripper } from '@procmux/ansi';
import type { OutputLog } from '../log/output-log.js';

const LINE_FEED = 0x0a;
/** Bytes looked at per read while seeking a line feed. */
const SCAN_BYTES = 4096;

/**
 * The offset just past the first line feed in the log's bytes [from, to), or undefined when
 * there is none: where the first whole line of a history cut at `from` starts. Reads no more
 * than those bytes, a few KiB at a time.
 */
export function lineStartAfter(log: OutputLog, from: number, to: number): number | undefined {
  const scratch = Buffer.allocUnsafe(SCAN_BYTES);
  for (let at = from; at < to; at += SCAN_BYTES) {
    const bytes = log.bytesBetween(at, Math.min(to, at + SCAN_BYTES), scratch);
    const newline = bytes.indexOf(LINE_FEED);
    if (newline !== -1) return at + newline + 1;
  }
  return undefined;
}

/**
 * Transcript lines that end between the line start `from` and `to`, read with a fresh
 * stripper as a page is: its line feeds, and with `closes` (an episode starts at `to`, and
 * ends the row before it) one more for a row left unfinished there.
 */
export function linesBetween(log: OutputLog, from: number, to: number, closes: boolean): number {
  const stripper = createAnsiStripper();
  let lines = 0;
  let open = false;
  const count = (text: string) => {
    if (text === '') return;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines += 1;
    open = !text.endsWith('\n');
  };
  for (let cursor = from; cursor < to; ) {
    const page = log.read({ cursor });
    if (page.cursor === cursor) break;
    // `to` is a line or episode start, hence a character boundary: the page is cut there.
    const data =
      page.cursor > to
        ? Buffer.from(page.data)
            .subarray(0, to - cursor)
            .toString('utf8')
        : page.data;
    count(stripper.push(data));
    cursor = Math.min(page.cursor, to);
  }
  const rest = stripper.flush();
  return lines + (closes && (rest !== '' || open) ? 1 : 0);
}
