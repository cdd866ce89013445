import { C1_FIRST, CAN, CSI, DEL, ESC, SUB } from './codes.js';

// Only ESC and the C1 CSI can start a sequence this tracker cares about. They are found with
// indexOf, a native scan: a regex for either ran at about 1 GB/s, most of a PTY flood's cost.
const ESC_TEXT = '\x1b';
const CSI_TEXT = '\x9b';

const GROUND = 0;
const ESCAPE = 1;
const ESCAPE_INTERMEDIATE = 2;
const CSI_SEQUENCE = 3;

// xterm.js keeps at most 32 parameters; modes named after that are ignored, so are they here.
const MAX_PARAMS = 32;
const MAX_PARAM = 0xffff;
const APPLICATION_CURSOR_KEYS = 1;
const BRACKETED_PASTE = 2004;

/**
 * Follows the terminal modes a program sets in its output, so input can be encoded the way
 * it expects: bracketed paste (`ESC[?2004h`/`l`) and application cursor keys (`ESC[?1h`/`l`).
 * Sequences may be split anywhere across chunks and may set several modes at once
 * (`ESC[?1;2004h`). A full reset (`ESC c`) or soft reset (`ESC[!p`) clears both, as in xterm.
 *
 * @example
 * const modes = new TerminalModeTracker();
 * modes.feed('\x1b[?20');
 * modes.feed('04h>>> ');
 * modes.bracketedPaste; // true
 */
export class TerminalModeTracker {
  private paste = false;
  private cursorKeys = false;
  private state = GROUND;
  // The CSI being read: its prefix (0 or one of < = > ?), its one intermediate (-1: several),
  // whether it is malformed, and the modes of interest among its parameters.
  private prefix = 0;
  private intermediate = 0;
  private ignored = false;
  private started = false;
  private value = 0;
  private inSubParam = false;
  private params = 0;
  private namesCursorKeys = false;
  private namesPaste = false;

  /** Whether the program asked for bracketed paste (`ESC[?2004h`) and has not turned it off. */
  get bracketedPaste(): boolean {
    return this.paste;
  }

  /** Whether the program switched cursor keys to application mode (`ESC[?1h`, DECCKM). */
  get applicationCursorKeys(): boolean {
    return this.cursorKeys;
  }

  /** Reads one chunk of the program's output. */
  feed(chunk: string): void {
    const n = chunk.length;
    let state = this.state;
    // The next ESC and CSI at or after where the last search started; -1: none in the chunk.
    let nextEsc = -2;
    let nextCsi = -2;
    for (let i = 0; i < n; i++) {
      if (state === GROUND) {
        // Text between sequences is skipped in native searches, each character looked at once.
        if (nextEsc !== -1 && nextEsc < i) nextEsc = chunk.indexOf(ESC_TEXT, i);
        if (nextCsi !== -1 && nextCsi < i) nextCsi = chunk.indexOf(CSI_TEXT, i);
        const next = nextEsc === -1 ? nextCsi : nextCsi === -1 ? nextEsc : Math.min(nextEsc, nextCsi);
        if (next === -1) break;
        i = next;
        state = chunk.charCodeAt(i) === ESC ? ESCAPE : this.beginCsi();
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (c < 0x20) {
        // Other C0 controls are executed inside a sequence without ending it.
        if (c === ESC) state = ESCAPE;
        else if (c === CAN || c === SUB) state = GROUND;
        continue;
      }
      if (c === DEL) continue;
      if (c >= C1_FIRST) {
        state = c === CSI ? this.beginCsi() : GROUND;
        continue;
      }
      if (state === ESCAPE) {
        if (c === 0x63) this.reset(); // c: RIS
        if (c < 0x30) state = ESCAPE_INTERMEDIATE;
        else state = c === 0x5b ? this.beginCsi() : GROUND;
      } else if (state === ESCAPE_INTERMEDIATE) {
        if (c >= 0x30) state = GROUND;
      } else if (c >= 0x40) {
        this.dispatch(c);
        state = GROUND;
      } else this.csiByte(c);
    }
    this.state = state;
  }

  private beginCsi(): number {
    this.prefix = 0;
    this.intermediate = 0;
    this.ignored = false;
    this.started = false;
    this.value = 0;
    this.inSubParam = false;
    this.params = 0;
    this.namesCursorKeys = false;
    this.namesPaste = false;
    return CSI_SEQUENCE;
  }

  private csiByte(c: number): void {
    const first = !this.started;
    this.started = true;
    if (c < 0x30) {
      this.intermediate = this.intermediate === 0 ? c : -1;
      return;
    }
    // Parameters after an intermediate make the sequence invalid (DEC's csi_ignore).
    if (this.intermediate !== 0) this.ignored = true;
    if (c <= 0x39) {
      if (!this.inSubParam) this.value = Math.min(this.value * 10 + c - 0x30, MAX_PARAM);
    } else if (c === 0x3a) this.inSubParam = true;
    else if (c === 0x3b) this.endParam();
    else if (first) this.prefix = c;
    else this.ignored = true;
  }

  private endParam(): void {
    if (this.params < MAX_PARAMS) {
      if (this.value === APPLICATION_CURSOR_KEYS) this.namesCursorKeys = true;
      else if (this.value === BRACKETED_PASTE) this.namesPaste = true;
    }
    this.params++;
    this.value = 0;
    this.inSubParam = false;
  }

  private dispatch(final: number): void {
    if (this.ignored) return;
    this.endParam();
    if ((final === 0x68 || final === 0x6c) && this.prefix === 0x3f && this.intermediate === 0) {
      // h / l after ?: DECSET / DECRST
      const on = final === 0x68;
      if (this.namesCursorKeys) this.cursorKeys = on;
      if (this.namesPaste) this.paste = on;
    } else if (final === 0x70 && this.prefix === 0 && this.intermediate === 0x21) {
      this.reset(); // ! p: DECSTR
    }
  }

  private reset(): void {
    this.paste = false;
    this.cursorKeys = false;
  }
}
