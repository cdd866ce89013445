import type { ScreenCursor, ScreenLike, ScreenModes } from '@procmux/core-types';
import { invalidOption, ProcmuxError } from '@procmux/core-types';
import serializeAddon from '@xterm/addon-serialize';
import unicode11 from '@xterm/addon-unicode11';
import xterm from '@xterm/headless';
import { HistoryAnchor } from './anchor.js';
import {
  joinRows,
  lineStartsBetween,
  type Row,
  readRows,
  trailingBlankCount,
  withoutTrailingBlank,
} from './buffer-lines.js';
import { computeDelta, type DeltaState, INITIAL_DELTA_STATE } from './delta.js';
import { ScreenErasures } from './erasures.js';
import { resolveScreenOptions, resolveSize } from './options.js';
import { ParseQueue } from './parse-queue.js';
import { PlainHold } from './plain-hold.js';
import { plainRows } from './plain-rows.js';
import type { ScreenChanges, TerminalScreenOptions } from './types.js';

const { Terminal } = xterm;
type XtermTerminal = InstanceType<typeof Terminal>;

// Characters handed to xterm.js but not yet parsed, at most; more waits in the ParseQueue.
// xterm.js throws input away above 50 MB in flight.
const PARSER_HIGH_WATER = 16 * 1024 * 1024;
// How far renderNew() looks above the screen for the start of a line that wraps onto it, so a
// redrawn wrapped line comes back whole. Bounded, so a single huge line cannot make every render
// read the whole scrollback.
const MAX_WRAP_LOOKBACK = 100;

/**
 * A headless terminal (xterm.js) fed with a program's output, rendering what a person would see.
 *
 * @example
 * const screen = new TerminalScreen({ cols: 80, rows: 24 });
 * screen.feed('>>> i');
 * await screen.renderNew(); // '>>> i'
 * screen.feed('\r>>> im');
 * await screen.renderNew(); // 'm'
 */
export class TerminalScreen implements ScreenLike {
  private readonly terminal: XtermTerminal;
  private readonly queue: ParseQueue;
  private readonly anchor: HistoryAnchor;
  private readonly serializer: InstanceType<typeof serializeAddon.SerializeAddon>;
  private readonly replyListeners = new Set<{ dispose(): void }>();
  // Plain text not yet parsed: handed over when the screen is read or other output arrives.
  private readonly plain: PlainHold;
  private delta: DeltaState = INITIAL_DELTA_STATE;
  // Whether the previous renderChanges() read the normal screen (see its `redrawn`).
  private readOnNormal = true;
  private readonly erasures: ScreenErasures;
  // While the alternate screen is up: the lines on the normal screen as the last read of it
  // returned them (see previousState).
  private normalHeld: string[] | undefined;
  // Fixed at construction; kept here because xterm.js's options getter is slow for once a chunk.
  private readonly scrollback: number;
  private disposed = false;

  constructor(options: TerminalScreenOptions = {}) {
    const { cols, rows, scrollback } = resolveScreenOptions(options);
    this.scrollback = scrollback;
    // The buffer, marker and unicode APIs are "proposed" in xterm.js and need this to be on.
    this.terminal = new Terminal({ cols, rows, scrollback, allowProposedApi: true });
    // Programs measure emoji as two columns (Unicode 11+ wcwidth); xterm.js's default tables
    // (Unicode 6) say one, and the cursor would drift from where the program thinks it is.
    this.terminal.loadAddon(new unicode11.Unicode11Addon());
    this.terminal.unicode.activeVersion = '11';
    this.serializer = new serializeAddon.SerializeAddon();
    this.terminal.loadAddon(this.serializer);
    this.queue = new ParseQueue((chunk, done) => this.terminal.write(chunk, done), PARSER_HIGH_WATER);
    this.anchor = new HistoryAnchor(this.terminal);
    this.plain = new PlainHold({
      keepLines: () => this.plainKeep(),
      canDrop: () => this.queue.isIdle && plainState(this.terminal),
    });
    this.terminal.buffer.onBufferChange((buffer) => {
      if (buffer.type === 'normal') this.anchor.normalActivated();
    });
    this.erasures = new ScreenErasures(this.terminal, this.anchor, () => this.delta.lines.length);
  }

  /** Hands output of the program to the terminal. Synchronous; nothing fed is ever dropped. */
  feed(chunk: string): void {
    this.assertLive('feed');
    if (typeof chunk !== 'string') {
      throw invalidOption('chunk', 'a string (what feed() takes)', { value: chunk });
    }
    if (chunk === '') return;
    // Text is held only after a parsed state: held behind chunks still in the parser, a read
    // parsed those and not it (a full-screen program's clear without the frame drawn next: a
    // live `top` read as an empty screen, every time).
    if ((!this.plain.empty || this.queue.isIdle) && this.plain.hold(chunk)) {
      if (this.plain.full) this.release();
      return;
    }
    this.release();
    this.queue.push(chunk);
  }

  /** Resolves once every byte fed so far has been parsed, so `cursor` and `modes` reflect it. */
  flush(): Promise<void> {
    return this.parsed('flush');
  }

  /**
   * The scrollback and the screen, one logical line per line (a line the terminal wrapped is
   * joined again), right-trimmed, without trailing blank lines. On the alternate screen this is
   * the scrollback of the normal screen followed by what the full-screen program shows.
   */
  async renderFull(): Promise<string> {
    await this.parsed('renderFull');
    const normal = this.terminal.buffer.normal;
    const rows =
      this.terminal.buffer.active.type === 'normal'
        ? readRows(normal, 0, normal.length)
        : this.withAlternateScreen(readRows(normal, 0, normal.baseY));
    return withoutTrailingBlank(joinRows(rows)).join('\n');
  }

  /**
   * The screen alone, as a person sees it now: the rows of the active buffer (a full-screen
   * program's on the alternate screen), one logical line per line, without the scrollback.
   */
  async renderScreen(): Promise<string> {
    await this.parsed('renderScreen');
    const active = this.terminal.buffer.active;
    return visibleText(readRows(active, active.type === 'normal' ? active.baseY : 0, active.length));
  }

  /**
   * What is new since the previous renderNew(), written to be appended to the text the previous
   * calls returned: when the line the previous call ended on has only grown, just its new
   * characters; lines after it start with '\n'; a line redrawn in place comes back whole on a
   * line of its own. Reads only the lines that scrolled off since the previous call plus one
   * screen. If more lines scrolled off than the scrollback keeps, it returns everything that is
   * still kept (scrollback + screen).
   */
  async renderNew(): Promise<string> {
    return (await this.renderChanges()).text;
  }

  /**
   * renderNew()'s text, and how many lines at the end of the text the previous calls returned
   * its first lines draw again in place (`redrawn`: a progress display's next state, top's next
   * frame). A reader holding that text can drop those lines before appending, and then holds
   * what the terminal shows rather than every state it went through. Counted only between two
   * reads of the normal screen whose starting row is still in the buffer, with no erase of the
   * whole screen or reset between them; 0 otherwise.
   */
  async renderChanges(): Promise<ScreenChanges> {
    await this.parsed('renderNew');
    const normal = this.terminal.buffer.normal;
    const onNormal = this.terminal.buffer.active.type === 'normal';
    // Lines are compared row for row from the anchor: only meaningful while it still marks the
    // row the previous read started from, on the screen both reads saw.
    const aligned = onNormal && this.readOnNormal && !this.erasures.cleared && !this.anchor.lost;
    const start = Math.min(this.anchor.row(), onNormal ? normal.length : normal.baseY);
    const rows = onNormal
      ? readRows(normal, start, normal.length)
      : this.withAlternateScreen(readRows(normal, start, normal.baseY));
    const next = onNormal ? this.lineStart(normal.baseY) : normal.baseY;
    const delta = computeDelta(this.previousState(onNormal, start), withoutTrailingBlank(joinRows(rows)));
    const above = Math.max(0, next - start);
    const kept = next >= start ? rows.slice(above) : readRows(normal, next, start).concat(rows);
    const lines = withoutTrailingBlank(joinRows(kept));
    // Empty lines below the last line with text, scrolled above the next starting row: not
    // returned yet (they might have stayed trailing blank rows), and not to be lost.
    const blankAbove = lines.length === 0 ? trailingBlankCount(joinRows(rows, 0, above)) : 0;
    const blankLines = (delta.text === '' ? this.delta.blankLines : 0) + blankAbove;
    this.delta = { lines, started: delta.started, endsOnLast: delta.endsOnLast, blankLines };
    this.readOnNormal = onNormal;
    if (onNormal) this.normalHeld = undefined;
    this.erasures.read();
    this.anchor.moveTo(next);
    return { text: delta.text, redrawn: aligned ? delta.redrawn : 0 };
  }

  /**
   * What this read's rows, from row `start`, are compared with: the last read's lines. Leaving
   * the alternate screen (vim, less, man, a pager) brings the normal screen back as it was; the
   * last read was of the alternate screen, so every line on the normal one came back again
   * (after `less`, the whole screen before it). What the reader holds of the normal screen is
   * what its last read returned, less the lines that scrolled above it before the alternate
   * screen came (the first read there returned what changed of those): those are kept at that
   * read and compared with here, as lines the reader's text no longer ends on.
   */
  private previousState(onNormal: boolean, start: number): DeltaState {
    const previous = this.erasures.previous(this.delta);
    if (!onNormal && this.readOnNormal) {
      const normal = this.terminal.buffer.normal;
      // (`lost` reads the active buffer's markers: on the alternate screen the anchor's is not there.)
      const above =
        this.anchor.markedRow() < 0
          ? undefined
          : lineStartsBetween(normal, start, normal.baseY, previous.lines.length);
      this.normalHeld = above === undefined ? undefined : previous.lines.slice(above);
    }
    const held = this.normalHeld;
    if (!onNormal || this.readOnNormal || held === undefined || this.erasures.normalErased) return previous;
    return { lines: held, started: previous.started, endsOnLast: false, blankLines: 0 };
  }

  /**
   * The last look: what renderNew() and renderFull() would return now, read in one pass, then
   * the screen is disposed (later calls throw ERR_PROCESS_STATE). Plain output still held
   * whose tail scrolls every row there was out is rendered from its text, never parsed.
   */
  async retire(): Promise<{ delta: string; full: string; screen: string; redrawn: number }> {
    this.assertLive('retire');
    try {
      // Everything before the held text parsed; the held text stays held.
      await this.queue.idle();
      this.assertLive('retire');
      const plain = this.heldRows();
      const rows = plain ?? (await this.parsedRows());
      const full = withoutTrailingBlank(joinRows(rows.rows));
      // Every row the anchor could be on scrolled out under held text: it reads from row 0.
      const start = plain ? 0 : Math.min(this.anchor.row(), rows.normalEnd);
      const fresh = start === 0 ? full : withoutTrailingBlank(joinRows(rows.rows, start));
      const changes = computeDelta(this.previousState(rows.onNormal, start), fresh);
      const delta = changes.text;
      const text = full.join('\n');
      const aligned =
        plain === undefined &&
        this.readOnNormal &&
        rows.onNormal &&
        !this.erasures.cleared &&
        !this.anchor.lost;
      // The rows a person sees: the last screenful of the normal buffer, or the alternate screen.
      const screenFrom = rows.onNormal ? Math.max(0, rows.normalEnd - this.terminal.rows) : rows.normalEnd;
      const screen = visibleText(rows.rows.slice(screenFrom));
      // Both are often the same text (nothing was read before): an ended session keeps it once.
      return {
        delta: delta === text ? text : delta,
        full: text,
        screen: screen === text ? text : screen,
        redrawn: aligned ? changes.redrawn : 0,
      };
    } finally {
      this.dispose();
    }
  }

  /**
   * The terminal as escape sequences (scrollback, screen, colours, cursor, modes such as the
   * alternate screen): written to an empty terminal of the same size, it shows what this one
   * shows. Everything fed before the call is included, and nothing fed after it: the text is
   * taken synchronously once the parser is idle.
   */
  async serialize(): Promise<string> {
    // idle() waits for the chunks accepted when it was called; output that arrived meanwhile
    // must be parsed too, or it would be both missing here and counted as already shown.
    do await this.parsed('serialize');
    while (!this.queue.isIdle || !this.plain.empty);
    return this.serializer.serialize();
  }

  /** Columns and rows now. */
  get size(): { cols: number; rows: number } {
    this.assertLive('size');
    return { cols: this.terminal.cols, rows: this.terminal.rows };
  }

  /** Changes the size, reflowing wrapped lines as xterm does. Sizes as in the constructor. */
  resize(cols: number, rows: number): void {
    this.assertLive('resize');
    this.release();
    const size = resolveSize(cols, rows);
    this.terminal.resize(size.cols, size.rows);
    this.anchor.resized();
    // The anchor may repeat rows after a resize: the held lines no longer start there.
    this.normalHeld = undefined;
  }

  /**
   * The cursor, 1-based and relative to the screen, as parsed so far (await `flush()` first to
   * include everything fed). After a character in the last column the column stays at the last
   * one, as a terminal reports it.
   */
  get cursor(): ScreenCursor {
    this.assertLive('cursor');
    this.release();
    const active = this.terminal.buffer.active;
    return { row: active.cursorY + 1, col: Math.min(active.cursorX, this.terminal.cols - 1) + 1 };
  }

  /**
   * The logical line the cursor is on (wrapped rows joined), as parsed so far: the line a
   * program is still writing, such as a prompt. Blank cells past its last character are left
   * out, except those before the cursor: a prompt's trailing space (`>>> `) is part of it, as
   * it is of the same prompt on a pipe. '' when the cursor sits at the start of an empty row.
   */
  cursorLine(): string {
    this.assertLive('cursorLine');
    this.release();
    const active = this.terminal.buffer.active;
    const row = active.baseY + active.cursorY;
    let from = row;
    while (from > 0 && row - from < MAX_WRAP_LOOKBACK && active.getLine(from)?.isWrapped) from--;
    let to = row + 1;
    while (to < active.length && active.getLine(to)?.isWrapped) to++;
    const rows = readRows(active, from, to);
    const line = joinRows(rows).join('');
    // The line up to the cursor, blanks included; longer than the trimmed line only by blanks.
    const before = rows.slice(0, row - from).map((r) => r.text);
    before.push(active.getLine(row)?.translateToString(false, 0, active.cursorX) ?? '');
    const toCursor = before.join('');
    return toCursor.length > line.length ? toCursor : line;
  }

  /**
   * What a prompt shows before the input it waits for: the cursor's logical line up to the
   * cursor, blanks before it kept; what follows the cursor is left out (a shell's right-hand
   * prompt, text the cursor moved back over). '' when nothing precedes the cursor on its line
   * (vim's cursor at the start of its text) or the cursor rests past a row written to the last
   * column (`top` leaves it after its last process row): a screen's row, not a prompt.
   */
  cursorPrompt(): string {
    this.assertLive('cursorPrompt');
    this.release();
    const active = this.terminal.buffer.active;
    if (active.cursorX >= this.terminal.cols) return '';
    const row = active.baseY + active.cursorY;
    let from = row;
    while (from > 0 && row - from < MAX_WRAP_LOOKBACK && active.getLine(from)?.isWrapped) from--;
    const before = readRows(active, from, row).map((r) => r.text);
    before.push(active.getLine(row)?.translateToString(false, 0, active.cursorX) ?? '');
    return before.join('');
  }

  /** The modes the program set, as parsed so far. */
  get modes(): ScreenModes {
    this.assertLive('modes');
    this.release();
    const modes = this.terminal.modes;
    return {
      bracketedPaste: modes.bracketedPasteMode,
      applicationCursorKeys: modes.applicationCursorKeysMode,
      alternateScreen: this.terminal.buffer.active.type === 'alternate',
    };
  }

  /**
   * Calls `cb` with every answer the terminal gives to a query in the output (cursor position
   * `ESC[6n`, device attributes `ESC[c`, ...), in order, as the query is parsed: write it to the
   * program's input. Returns a disposer.
   */
  onReply(cb: (data: string) => void): () => void {
    this.assertLive('onReply');
    if (typeof cb !== 'function') {
      throw invalidOption('cb', 'a function (what onReply() takes)', { value: cb });
    }
    const listener = this.terminal.onData(cb);
    this.replyListeners.add(listener);
    return () => {
      if (!this.replyListeners.delete(listener)) return;
      listener.dispose();
    };
  }

  /** Frees the terminal. Pending renders reject; later calls throw ERR_PROCESS_STATE. Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.queue.close(stateError('wait for output to be parsed'));
    for (const listener of this.replyListeners) listener.dispose();
    this.replyListeners.clear();
    this.anchor.dispose();
    this.terminal.dispose();
    // The run's closures (its cursor-query replies) may outlive the screen: what is held goes now.
    this.plain.clear();
  }

  private async parsed(operation: string): Promise<void> {
    this.assertLive(operation);
    this.release();
    await this.queue.idle();
    // dispose() may have run between the parse finishing and this continuation.
    this.assertLive(operation);
  }

  // Line feeds after a CR that scroll every row out: down to the last row, then the whole buffer.
  private plainKeep(): number {
    return this.scrollback + 2 * this.terminal.rows + 2;
  }

  /** Hands held plain text to the parser, in one write. */
  private release(): void {
    if (!this.plain.empty) this.queue.push(this.plain.take());
  }

  /** Rows of the normal buffer (and the alternate screen when active) once all is parsed. */
  private async parsedRows(): Promise<{ rows: Row[]; normalEnd: number; onNormal: boolean }> {
    await this.parsed('retire');
    const normal = this.terminal.buffer.normal;
    if (this.terminal.buffer.active.type === 'normal') {
      return { rows: readRows(normal, 0, normal.length), normalEnd: normal.length, onNormal: true };
    }
    return {
      rows: this.withAlternateScreen(readRows(normal, 0, normal.baseY)),
      normalEnd: normal.baseY,
      onNormal: false,
    };
  }

  /** The buffer's rows after the held plain text, when they follow from that text alone (plain-rows.ts). */
  private heldRows(): { rows: Row[]; normalEnd: number; onNormal: boolean } | undefined {
    const terminal = this.terminal;
    const normal = terminal.buffer.normal;
    if (terminal.buffer.active.type !== 'normal' || !this.queue.isIdle) return undefined;
    // Scrolling appends below the screen only while the screen is the buffer's end.
    if (normal.length !== normal.baseY + terminal.rows || !printsAsText(terminal)) return undefined;
    const tail = this.plain.coveringTail(this.plainKeep());
    if (tail === undefined || tail.includes('\t')) return undefined;
    const rows = plainRows(tail, terminal.cols, this.scrollback + terminal.rows);
    return { rows, normalEnd: rows.length, onNormal: true };
  }

  private withAlternateScreen(rows: Row[]): Row[] {
    const alternate = this.terminal.buffer.alternate;
    const first = rows.length;
    readRows(alternate, 0, alternate.length, rows);
    // The alternate screen starts a line of its own, whatever the history above it ended with.
    if (rows[first]) rows[first]!.wrapped = false;
    return rows;
  }

  /** The first row of the line that `row` belongs to, looking back a bounded number of rows. */
  private lineStart(row: number): number {
    const normal = this.terminal.buffer.normal;
    let start = row;
    // `row` is the top of the screen, so rows 0..row are all held.
    while (start > 0 && row - start < MAX_WRAP_LOOKBACK && normal.getLine(start)!.isWrapped) start--;
    return start;
  }

  private assertLive(operation: string): void {
    if (this.disposed) throw stateError(operation);
  }
}

/** Rows of one screen as text; its top row starts a line even where it continues one above. */
function visibleText(rows: Row[]): string {
  if (rows[0]) rows[0] = { ...rows[0], wrapped: false };
  return withoutTrailingBlank(joinRows(rows)).join('\n');
}

interface XtermInternals {
  _core?: {
    buffer?: { scrollTop?: unknown; scrollBottom?: unknown };
    _inputHandler?: { _parser?: { currentState?: unknown } };
    // `charset` is set only while a mapping is in use; `glevel` is always there.
    _charsetService?: { charset?: unknown; glevel?: unknown };
  };
}

/**
 * Whether held plain text may be cut to its tail (see PlainHold): the scroll region is the
 * whole screen and the parser is at ground. Read from xterm.js's internals (pinned version);
 * where they are not found, nothing is dropped and the text is only batched.
 */
function plainState(terminal: XtermTerminal): boolean {
  const core = (terminal as unknown as XtermInternals)._core;
  const buffer = core?.buffer;
  return (
    buffer?.scrollTop === 0 &&
    buffer.scrollBottom === terminal.rows - 1 &&
    core?._inputHandler?._parser?.currentState === 0
  );
}

/**
 * Whether printable ASCII is written as itself: autowrap on, insert mode off, a line feed not
 * also a carriage return, no charset mapping (DEC graphics and such). The charset is read from
 * xterm.js's internals; where they are not found the answer is no.
 */
function printsAsText(terminal: XtermTerminal): boolean {
  const charsets = (terminal as unknown as XtermInternals)._core?._charsetService;
  return (
    terminal.modes.wraparoundMode &&
    !terminal.modes.insertMode &&
    terminal.options.convertEol !== true &&
    charsets !== undefined &&
    'glevel' in charsets &&
    charsets.charset === undefined
  );
}

function stateError(operation: string): ProcmuxError {
  return new ProcmuxError('ERR_PROCESS_STATE', `cannot ${operation}: the TerminalScreen was disposed`, {
    details: { operation },
  });
}
