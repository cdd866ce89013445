// The rows plain text leaves in the buffer, worked out without the emulator, for the last render
// of a screen (TerminalScreen.retire): parsing a flood's held tail only to read it back once cost
// more host CPU than the whole flood through node-pty. Exact only where PlainHold's drop is
// (whole-screen scroll region, parser at ground) and the text starts with a CR that has enough
// line feeds after it to scroll every row there was out; and only with the modes that print ASCII
// as itself (autowrap on, insert off, no line feed as new line, no charset mapping), no tabs (tab
// stops are the terminal's), and a buffer whose last row is the screen's. The caller checks those;
// this mirrors xterm.js 6's print() and lineFeed() for what is left.
import type { Row } from './buffer-lines.js';

const LF = 10;
const CR = 13;

/**
 * The last `count` rows, as readRows() would read them, after `text` (printable ASCII, CR and LF
 * only) was written from column 0 of a fresh row of `cols` columns, each line feed scrolling a
 * blank row in.
 */
export function plainRows(text: string, cols: number, count: number): Row[] {
  const rows: Row[] = [];
  // The row the cursor is on: its cells up to the last one written (readRows trims unwritten ones).
  let line = '';
  let wrapped = false;
  let x = 0;
  const end = text.length;
  // The next LF and CR at or after `at`, found by indexOf (a scan per character was most of
  // a retire's cost after a flood).
  let nextLf = -1;
  let nextCr = -1;
  let at = 0;
  while (at < end) {
    const code = text.charCodeAt(at);
    if (code === LF) {
      rows.push({ text: line, wrapped });
      line = '';
      wrapped = false;
      // A line feed right after the last column leaves the cursor on that column (xterm.js).
      if (x >= cols) x = cols - 1;
      at++;
      continue;
    }
    if (code === CR) {
      x = 0;
      at++;
      continue;
    }
    if (nextLf < at) nextLf = indexOrEnd(text, '\n', at);
    if (nextCr < at) nextCr = indexOrEnd(text, '\r', at);
    const stop = Math.min(nextLf, nextCr);
    while (at < stop) {
      if (x >= cols) {
        // Autowrap: the next row continues this one.
        rows.push({ text: line, wrapped });
        line = '';
        wrapped = true;
        x = 0;
      }
      const take = Math.min(cols - x, stop - at);
      line = overwrite(line, x, text.slice(at, at + take));
      x += take;
      at += take;
    }
  }
  rows.push({ text: line, wrapped });
  return rows.length > count ? rows.slice(rows.length - count) : rows;
}

function indexOrEnd(text: string, char: string, from: number): number {
  const at = text.indexOf(char, from);
  return at === -1 ? text.length : at;
}

/** `line` with `part` written from column `x`; cells never written before `x` read as spaces. */
function overwrite(line: string, x: number, part: string): string {
  if (x === 0 && part.length >= line.length) return part;
  const head = x > line.length ? line + ' '.repeat(x - line.length) : line.slice(0, x);
  return head + part + line.slice(x + part.length);
}
