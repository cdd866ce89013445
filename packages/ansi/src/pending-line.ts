import { countCodePoints, isHighSurrogate, isLowSurrogate, nextCodePoint } from './codes.js';

/**
 * The row the cursor is on, modelled the way a terminal keeps it: printing overwrites at the
 * cursor, `\r` and backspace move the cursor without erasing, and only a line feed (or the
 * end of the stream) makes the row final. Columns are code points, not display cells.
 *
 * Rows longer than `width` code units wrap softly: the full row is emitted without a line
 * feed and the cursor starts a new row, as a terminal wraps at its right margin. This bounds
 * both the memory held and the cost of an overwrite.
 */
export class PendingLine {
  /** The row as a terminal would show it now. */
  text = '';
  /** Cursor index into `text` in UTF-16 units; past the end means blank cells not yet written. */
  private col = 0;

  constructor(
    private readonly width: number,
    private readonly out: string[],
  ) {}

  /** True at the start of an empty row, where whole lines can bypass this model. */
  get isClear(): boolean {
    return this.col === 0 && this.text === '';
  }

  /** Prints text[start, end) at the cursor. */
  write(text: string, start: number, end: number): void {
    while (start < end) {
      if (this.col >= this.width) this.wrap();
      let stop = Math.min(end, start + this.width - this.col);
      // Never split a surrogate pair across rows (a lone high half is a character of its own).
      if (stop < end && isHighSurrogate(text.charCodeAt(stop - 1)) && isLowSurrogate(text.charCodeAt(stop)))
        stop++;
      const piece = text.slice(start, stop);
      const row = this.text;
      const col = this.col;
      if (col === row.length) this.text = row + piece;
      else if (col > row.length) this.text = row + ' '.repeat(col - row.length) + piece;
      else this.text = row.slice(0, col) + piece + row.slice(this.skip(col, countCodePoints(piece)));
      this.col = col + piece.length;
      start = stop;
    }
  }

  carriageReturn(): void {
    this.col = 0;
  }

  backspace(): void {
    // With a wrap pending (cursor past the margin) xterm first steps back onto the margin.
    if (this.col >= this.width) this.cursorTo(this.width - 1);
    const col = this.col;
    if (col > this.text.length) this.col = col - 1;
    else if (col > 0) {
      const pair =
        col >= 2 &&
        isLowSurrogate(this.text.charCodeAt(col - 1)) &&
        isHighSurrogate(this.text.charCodeAt(col - 2));
      this.col = pair ? col - 2 : col - 1;
    }
  }

  /** CHA/HPA: moves to a 0-based column, stopping at the right margin as a terminal does. */
  cursorTo(column: number): void {
    const margin = this.width - 1;
    const row = this.text;
    let cells = column;
    let index = 0;
    while (cells > 0 && index < row.length) {
      const next = nextCodePoint(row, index);
      if (next > margin) {
        this.col = index;
        return;
      }
      index = next;
      cells--;
    }
    this.col = Math.min(index + cells, margin);
  }

  cursorForward(count: number): void {
    this.cursorTo(this.cellOfCursor() + count);
  }

  cursorBack(count: number): void {
    // As for backspace: a pending wrap is undone before moving left.
    if (this.col >= this.width) this.cursorTo(this.width - 1);
    this.cursorTo(Math.max(0, this.cellOfCursor() - count));
  }

  /** EL: 0 erases from the cursor to the end, 1 from the start through the cursor, 2 all. */
  erase(mode: number): void {
    const row = this.text;
    const col = this.col;
    if (mode === 0) {
      if (col < row.length) this.text = row.slice(0, col);
    } else if (mode === 1 || mode === 2) {
      const cell = this.cellOfCursor();
      // Erased cells before surviving text are blanks; erased cells at the end are nothing.
      this.text =
        mode === 1 && col < row.length ? ' '.repeat(cell + 1) + row.slice(nextCodePoint(row, col)) : '';
      this.col = cell;
    }
  }

  /** A line feed: the row is final. */
  newline(): void {
    this.out.push(this.text, '\n');
    this.text = '';
    this.col = 0;
  }

  /** End of stream: whatever the row shows is final. */
  end(): void {
    if (this.text !== '') this.out.push(this.text);
    this.text = '';
    this.col = 0;
  }

  private wrap(): void {
    // Blank cells the cursor moved over belong to the wrapped row.
    const blanks = this.col - this.text.length;
    this.out.push(blanks > 0 ? this.text + ' '.repeat(blanks) : this.text);
    this.text = '';
    this.col = 0;
  }

  private cellOfCursor(): number {
    const row = this.text;
    return this.col <= row.length
      ? countCodePoints(row, 0, this.col)
      : countCodePoints(row) + this.col - row.length;
  }

  /** Index after `count` code points from `from`, or the end of the row. */
  private skip(from: number, count: number): number {
    const row = this.text;
    let index = from;
    for (let left = count; left > 0 && index < row.length; left--) index = nextCodePoint(row, index);
    return index;
  }
}
