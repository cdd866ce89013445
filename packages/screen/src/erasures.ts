// A screen erased whole (`clear`, a test watcher's rerun, `console.clear()`) or reset is written
// afresh, not drawn over. Compared line for line with what the previous read returned, a rerun's
// lines equal to the last run's (its header, each passing test) were taken for lines already
// returned and left out: a jest rerun read as its one changed line. And xterm.js drops the
// markers on the rows it erases, so the anchor on the screen's top row was lost and the next
// read returned the whole scrollback again. Each such erase is seen here as it is parsed.
import type { Terminal } from '@xterm/headless';
import type { HistoryAnchor } from './anchor.js';
import { joinRows, lineStartsBetween, readRows } from './buffer-lines.js';
import type { DeltaState } from './delta.js';

export class ScreenErasures {
  /** The screen was erased whole or reset since the last read. */
  cleared = false;
  /** How many of the previous read's lines are still as they were (above what was erased). */
  #kept: number | undefined;
  /**
   * The last kept line as the buffer now holds it, when it wrapped onto the erased screen: its
   * rows above are what is left of a line returned before, not a line of its own.
   */
  #remnant: { index: number; text: string } | undefined;

  constructor(
    private readonly terminal: Terminal,
    private readonly anchor: HistoryAnchor,
    /** How many lines the previous read returned from the anchor. */
    private readonly previousLines: () => number,
  ) {
    terminal.parser.registerCsiHandler({ final: 'J' }, (params) => {
      const mode = params[0] ?? 0;
      const cursor = terminal.buffer.active;
      // Erase below with the cursor at the top left (`console.clear()`) erases it all too.
      if (mode === 2 || (mode === 0 && cursor.cursorX === 0 && cursor.cursorY === 0)) this.#screenErased();
      else if (mode === 3) this.#scrollbackErased();
      return false;
    });
    terminal.parser.registerEscHandler({ final: 'c' }, () => {
      this.cleared = true;
      this.#keep(0);
      return false;
    });
  }

  /** The normal screen was erased whole or reset since the last read (not only the alternate one). */
  get normalErased(): boolean {
    return this.#kept !== undefined;
  }

  /** `delta` less the lines the erases since took away: they compare with nothing now. */
  previous(delta: DeltaState): DeltaState {
    const kept = this.#kept;
    if (kept === undefined || kept >= delta.lines.length) return delta;
    const lines = delta.lines.slice(0, kept);
    const remnant = this.#remnant;
    if (remnant && remnant.index < kept) lines[remnant.index] = remnant.text;
    return { ...delta, lines, endsOnLast: false };
  }

  /** A read took the changes. */
  read(): void {
    this.cleared = false;
    this.#kept = undefined;
    this.#remnant = undefined;
  }

  #screenErased(): void {
    this.cleared = true;
    if (this.terminal.buffer.active.type !== 'normal') return;
    const top = this.terminal.buffer.normal.baseY;
    this.#keep(this.anchor.lost ? 0 : this.#linesAbove(top));
    this.anchor.keepAbove(top);
  }

  #scrollbackErased(): void {
    this.cleared = true;
    if (this.terminal.buffer.active.type !== 'normal') return;
    // The scrollback goes, and an anchor in it: the next read starts at the screen's top.
    if (this.anchor.lost || this.anchor.markedRow() < this.terminal.buffer.normal.baseY) this.#keep(0);
  }

  #keep(lines: number): void {
    if (this.#kept !== undefined && this.#kept <= lines) return;
    this.#kept = lines;
    if (this.#remnant && this.#remnant.index >= lines) this.#remnant = undefined;
  }

  /** How many of the previous read's lines start above row `top` (at most all of them). */
  #linesAbove(top: number): number {
    const normal = this.terminal.buffer.normal;
    const first = this.anchor.row();
    const count = lineStartsBetween(normal, first, top, this.previousLines());
    if (count !== undefined) return count;
    // The last one wraps onto the erased screen: what is left of it is its rows above.
    let lastStart = top - 1;
    while (lastStart > first && normal.getLine(lastStart)?.isWrapped) lastStart--;
    const above = lineStartsBetween(normal, first, lastStart, Number.POSITIVE_INFINITY) ?? 0;
    this.#remnant = { index: above, text: joinRows(readRows(normal, lastStart, top))[0] ?? '' };
    return above + 1;
  }
}
