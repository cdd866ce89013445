// Over the ~300-line guide on purpose: one streaming state machine (ground, escape, CSI, OSC,
// control strings, single shifts), whose transitions a reader checks against each other; split
// across files they would be harder to follow, not easier.
import { type Limit, resolveLimit } from '@procmux/core-types';
import {
  APC,
  BS,
  C1_FIRST,
  C1_LAST,
  CAN,
  CR,
  CSI,
  DCS,
  DEL,
  ESC,
  HT,
  isHighSurrogate,
  LF,
  OSC,
  PM,
  SOS,
  SS2,
  SS3,
  SUB,
} from './codes.js';
import { PendingLine } from './pending-line.js';

/** Options of {@link stripAnsi} and {@link createAnsiStripper}. */
export interface AnsiStripOptions {
  /**
   * UTF-16 units a row may hold before it wraps softly (emitted without adding a line feed,
   * so plain text is unchanged). Only matters to `\r` rewrites of rows longer than this.
   * Integer from 1 to 1,048,576; default 4,096.
   */
  maxLineLength?: number;
}

/** Default and hard cap of {@link AnsiStripOptions.maxLineLength}. */
export const MAX_LINE_LENGTH_LIMIT: Limit = { default: 4096, hard: 1024 * 1024 };

/**
 * A streaming stripper: feed it chunks in order, read what is final.
 *
 * The row being printed is held back until a line feed (or `flush()`) makes it final,
 * because a later `\r` may still rewrite it; this is why output lags by up to one line.
 */
export interface AnsiStripper {
  /** Strips one chunk; returns the text that became final, possibly empty. */
  push(chunk: string): string;
  /**
   * Ends the stream: returns the held row, drops an unfinished escape sequence and resets,
   * so the stripper can start a new stream.
   */
  flush(): string;
  /** The held row as it looks now; it is still returned by a later push or flush. */
  readonly pending: string;
  /**
   * True when no escape sequence, control string or split character is open: the next chunk
   * starts as text. A chunk free of ESC and C1 controls then adds exactly its own line feeds
   * to the stripped text, so a caller that only counts lines may count them itself.
   */
  readonly atGround: boolean;
}

// Parser states, after the DEC/ECMA-48 model that xterm.js also follows.
const GROUND = 0;
const ESCAPE = 1;
const ESCAPE_INTERMEDIATE = 2;
const CSI_SEQUENCE = 3;
const OSC_STRING = 4;
const CONTROL_STRING = 5; // DCS, SOS, PM, APC: end only at ST
const SINGLE_SHIFT = 6;

// Printable text, tabs and line feeds: everything but C0, DEL and C1.
const PLAIN_RUN = /[^\x00-\x08\x0b-\x1f\x7f-\x9f]*/y;
// What ends an OSC (BEL too) or a DCS/SOS/PM/APC string: ESC, CAN, SUB, any C1 (ST among them).
const OSC_END = /[\x07\x18\x1a\x1b\x80-\x9f]/g;
const STRING_END = /[\x18\x1a\x1b\x80-\x9f]/g;

const NO_PARAM = -1;
const MAX_PARAM = 0xffff;

class Stripper implements AnsiStripper {
  private state = GROUND;
  private carry = '';
  // What the current CSI needs to act on the row: its first parameter, and whether it is a
  // plain (no private marker, no intermediate) sequence.
  private csiParam = NO_PARAM;
  private csiParamDone = false;
  private csiPlain = true;
  private readonly out: string[] = [];
  private readonly line: PendingLine;

  constructor(width: number) {
    this.line = new PendingLine(width, this.out);
  }

  get pending(): string {
    return this.line.text;
  }

  get atGround(): boolean {
    return this.state === GROUND && this.carry === '';
  }

  push(chunk: string): string {
    let text = this.carry === '' ? chunk : this.carry + chunk;
    this.carry = '';
    // A chunk cut inside a surrogate pair keeps the high half until the low half arrives,
    // so rows wrap and overwrite whole characters whatever the chunking.
    if (text.length > 0 && isHighSurrogate(text.charCodeAt(text.length - 1))) {
      this.carry = text.slice(-1);
      text = text.slice(0, -1);
    }
    this.run(text);
    return this.take();
  }

  flush(): string {
    if (this.carry !== '') this.run(this.carry);
    this.carry = '';
    this.line.end();
    this.state = GROUND;
    return this.take();
  }

  private take(): string {
    const out = this.out;
    if (out.length === 0) return '';
    const text = out.length === 1 ? (out[0] as string) : out.join('');
    out.length = 0;
    return text;
  }

  private run(text: string): void {
    const n = text.length;
    const line = this.line;
    let state = this.state;
    let i = 0;
    let nextLf = -1;
    while (i < n) {
      if (state === GROUND) {
        // A run of printable text, tabs and line feeds is found natively and sliced whole.
        PLAIN_RUN.lastIndex = i;
        PLAIN_RUN.test(text);
        const j = PLAIN_RUN.lastIndex;
        // Remember the next line feed, so a long line cut by many escapes is searched once.
        if (nextLf < i) {
          nextLf = text.indexOf('\n', i);
          if (nextLf < 0) nextLf = n;
        }
        if (nextLf < j) {
          const lastLf = text.lastIndexOf('\n', j - 1);
          // Complete lines that start on a clear row cannot be rewritten any more: emit them as they are.
          if (line.isClear) this.out.push(text.slice(i, lastLf + 1));
          else {
            line.write(text, i, nextLf);
            line.newline();
            if (lastLf > nextLf) this.out.push(text.slice(nextLf + 1, lastLf + 1));
          }
          i = lastLf + 1;
        }
        if (i < j) line.write(text, i, j);
        if (j >= n) break;
        const c = text.charCodeAt(j);
        i = j + 1;
        state = c < 0x20 || c === DEL ? this.control(c, state) : this.c1(c);
      } else if (state === OSC_STRING || state === CONTROL_STRING) {
        // String bodies (titles, hyperlinks, images) can be long: skip them in one native search.
        const end = state === OSC_STRING ? OSC_END : STRING_END;
        end.lastIndex = i;
        if (!end.test(text)) break;
        const j = end.lastIndex - 1;
        const c = text.charCodeAt(j);
        i = j + 1;
        if (c === ESC) state = ESCAPE;
        else if (c < 0x20) state = GROUND;
        else state = this.c1(c);
      } else {
        const c = text.charCodeAt(i);
        if (state === SINGLE_SHIFT) {
          // SS2/SS3 take the next printable ASCII character with them (ESC O A is an arrow key).
          if (c >= 0x20 && c < DEL) i++;
          state = GROUND;
          continue;
        }
        if (c < 0x20 || c === DEL) {
          state = this.control(c, state);
          i++;
          continue;
        }
        if (c >= C1_FIRST) {
          // A C1 control interrupts any sequence; other non-ASCII abandons it and prints.
          if (c <= C1_LAST) {
            state = this.c1(c);
            i++;
          } else state = GROUND;
          continue;
        }
        i++;
        if (state === ESCAPE) state = this.escape(c);
        else if (state === ESCAPE_INTERMEDIATE) {
          if (c >= 0x30) state = GROUND;
        } else if (c >= 0x40) {
          if (this.csiPlain) this.applyCsi(c);
          state = GROUND;
        } else this.csiByte(c);
      }
    }
    this.state = state;
  }

  /** C0 controls and DEL are executed (as a terminal does, even inside a sequence) or dropped. */
  private control(c: number, state: number): number {
    switch (c) {
      case ESC:
        return ESCAPE;
      case CAN:
      case SUB:
        return GROUND;
      case CR:
        this.line.carriageReturn();
        return state;
      case BS:
        this.line.backspace();
        return state;
      case LF:
        this.line.newline();
        return state;
      case HT:
        this.line.write('\t', 0, 1);
        return state;
      default:
        return state;
    }
  }

  private c1(c: number): number {
    switch (c) {
      case CSI:
        this.beginCsi();
        return CSI_SEQUENCE;
      case OSC:
        return OSC_STRING;
      case DCS:
      case SOS:
      case PM:
      case APC:
        return CONTROL_STRING;
      case SS2:
      case SS3:
        return SINGLE_SHIFT;
      default:
        return GROUND;
    }
  }

  private escape(c: number): number {
    if (c < 0x30) return ESCAPE_INTERMEDIATE;
    switch (c) {
      case 0x5b: // [
        this.beginCsi();
        return CSI_SEQUENCE;
      case 0x5d: // ]
        return OSC_STRING;
      case 0x50: // P
      case 0x58: // X
      case 0x5e: // ^
      case 0x5f: // _
        return CONTROL_STRING;
      case 0x4e: // N
      case 0x4f: // O
        return SINGLE_SHIFT;
      default:
        return GROUND;
    }
  }

  private beginCsi(): void {
    this.csiParam = NO_PARAM;
    this.csiParamDone = false;
    this.csiPlain = true;
  }

  private csiByte(c: number): void {
    if (c < 0x30)
      this.csiPlain = false; // intermediate
    else if (c <= 0x39) {
      if (!this.csiParamDone) this.csiParam = Math.min(Math.max(this.csiParam, 0) * 10 + c - 0x30, MAX_PARAM);
    } else if (c <= 0x3b)
      this.csiParamDone = true; // : or ;
    else this.csiPlain = false; // < = > ?
  }

  // The few sequences that change what the row shows; everything else is only removed.
  private applyCsi(final: number): void {
    const param = this.csiParam;
    const count = Math.max(param, 1);
    switch (final) {
      case 0x4b: // K: erase in line
        this.line.erase(Math.max(param, 0));
        break;
      case 0x47: // G: cursor to column
      case 0x60: // `: same, as HPA
        this.line.cursorTo(count - 1);
        break;
      case 0x43: // C: cursor forward
        this.line.cursorForward(count);
        break;
      case 0x44: // D: cursor back
        this.line.cursorBack(count);
        break;
    }
  }
}

/**
 * Creates a streaming stripper. The concatenation of every `push` and the final `flush` is
 * exactly `stripAnsi` of the whole input, however the input was split.
 *
 * @example
 * const stripper = createAnsiStripper();
 * stripper.push('\x1b[32mok\x1b[0m\r\n10%\r'); // 'ok\n' — '10%' is held
 * stripper.push('100%\n');                     // '100%\n'
 * stripper.flush();                             // ''
 */
export function createAnsiStripper(options: AnsiStripOptions = {}): AnsiStripper {
  return new Stripper(resolveLimit('maxLineLength', options.maxLineLength, MAX_LINE_LENGTH_LIMIT));
}

/**
 * Removes terminal escape sequences and control characters from text, and resolves `\r`,
 * backspace and line erasure the way a terminal shows that line: `"10%\r50%\r100%\n"` →
 * `"100%\n"`, `"abcdef\rXY"` → `"XYcdef"`, `"a\r\n"` → `"a\n"`. Line feeds and tabs stay.
 */
export function stripAnsi(text: string, options: AnsiStripOptions = {}): string {
  const stripper = createAnsiStripper(options);
  const head = stripper.push(text);
  return head + stripper.flush();
}
