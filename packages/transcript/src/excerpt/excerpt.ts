// A transcript too big to hold, reduced as it streams past to what the output budget can show:
// its head, its tail, line and byte counts, and the error-looking lines in between. Memory is
// a few times the budget, whatever the transcript's size (a 50 MB one-shot held as one string,
// then split and joined, took the server to 850 MB).
import { type BodyText, countNewlines, type ErrorLine } from './body-text.js';
import { headEnd } from './cut-point.js';
import { ERROR_LINE_PATTERN, ERROR_WORD_CHARS, MAX_ERROR_LINE_CHARS } from './error-lines.js';
import { ErrorPick, errorRoom, HEAD_SHARE } from './error-pick.js';

/** A run of whole lines that holds no error word and that ANSI stripping leaves as it is. */
export interface PlainSpan {
  /** Its UTF-16 length. */
  length: number;
  /** Its UTF-8 bytes. */
  bytes: number;
  /** Its line feeds (it ends with one). */
  newlines: number;
}

/** A match of ERROR_LINE_PATTERN, by offsets into the whole body. */
interface Match {
  start: number;
  end: number;
}

/**
 * An error line, where it starts and where its first match ends: the cut tests a line only up
 * to where the kept tail begins, so a line whose only error word lies beyond that is no
 * candidate (the leftmost match ends first: no pattern word holds another).
 */
type PlacedErrorLine = ErrorLine & { start: number; matchEnd: number };

interface OpenLine {
  start: number;
  index: number;
  /** The first MAX_ERROR_LINE_CHARS + 1 characters. */
  prefix: string;
  /** The last characters seen, so a word split between chunks is still found. */
  carry: string;
  first: Match | undefined;
  /** The first match starting at or after the end of the head (see Excerpt.#late). */
  late: Match | undefined;
}

/** The line that runs on past the head, and its first match after it. */
interface BoundaryLine {
  start: number;
  late: Match | undefined;
}

const ERROR_WORDS = new RegExp(ERROR_LINE_PATTERN.source, `${ERROR_LINE_PATTERN.flags}g`);
/** The pattern's words in lower case, for mayMatch. */
const LOWER_WORDS = ERROR_LINE_PATTERN.source.toLowerCase().split('|');

/**
 * False only when `text` holds no match of ERROR_LINE_PATTERN: its case-insensitive matches
 * are ASCII letters, which toLowerCase maps onto the lower-case words (a character it maps
 * into ASCII from outside, as the Kelvin sign, only makes a false "maybe"). Native searches,
 * about ten times faster than the regular expression over a flood's chunks.
 */
export function mayMatch(text: string): boolean {
  const lower = text.toLowerCase();
  for (const word of LOWER_WORDS) if (lower.includes(word)) return true;
  return false;
}

/** The first match in `text` at or after `from`, by offsets into the body (`base` is text's). */
function matchIn(text: string, from: number, base: number): Match | undefined {
  ERROR_WORDS.lastIndex = Math.max(0, from);
  const m = ERROR_WORDS.exec(text);
  return m === null ? undefined : { start: base + m.index, end: base + m.index + m[0].length };
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Head, tail and counts of a long text, collected chunk by chunk. */
export class Excerpt {
  #head = '';
  #tail = '';
  #length = 0;
  #bytes = 0;
  /** Whether the last chunk ended in a high surrogate (the first half of a pair). */
  #endsHigh = false;
  #newlines = 0;
  /**
   * Error-looking lines, in order: every one starting in the head; after it, those the cut
   * shows and the first it passes over (so it knows there were any).
   */
  #errors: PlacedErrorLine[] = [];
  /** The latest error line passed over: the last line, cut by the tail, may fit after all. */
  #lastPassed: PlacedErrorLine | undefined;
  #passedOne = false;
  /** Decides the lines after the head, from the first of them on (see error-pick.ts). */
  #pick: ErrorPick | undefined;
  readonly #avail: number;
  readonly #firstLine: number;
  #line: OpenLine;
  #boundary: BoundaryLine | undefined;
  readonly #keep: number;
  /** Where the head ends: a line cut inside the head is tested past it with its first match from here. */
  readonly #late: number;
  /** Where the text after the last skip began: the kept tail must lie after it. */
  #tailFrom = 0;

  /**
   * `avail`: the characters the cut may show, split between head, tail and error lines;
   * `firstLine`: the log index of the transcript's first line (error lines are shown by number).
   */
  constructor(avail: number, firstLine = 0) {
    this.#avail = avail;
    this.#firstLine = firstLine;
    // The head share is at most 40% of avail, the tail at most 60%; one character more each
    // lets the cut see the line break beside its boundary, and a word's length more lets a
    // match that straddles the head's end be found from the line's record.
    this.#late = avail + 1;
    this.#keep = this.#late + ERROR_WORD_CHARS;
    this.#line = this.#newLine(0, 0);
  }

  push(chunk: string): void {
    if (this.#head.length < this.#keep) this.#head += chunk.slice(0, this.#keep - this.#head.length);
    this.#tail += chunk;
    if (this.#tail.length > 2 * this.#keep) this.#tail = this.#tail.slice(this.#tail.length - this.#keep);
    this.#bytes += Buffer.byteLength(chunk);
    // A pair split between two chunks is one 4-byte character, not two 3-byte replacements.
    if (this.#endsHigh && isLowSurrogate(chunk.charCodeAt(0))) this.#bytes -= 2;
    this.#endsHigh = isHighSurrogate(chunk.charCodeAt(chunk.length - 1));
    let at = 0;
    // A chunk with no error word (a flood's): its first piece ends the open line as usual (a
    // word split across chunks is found there), the whole lines after it are only counted
    // (no match: nothing is kept of them), and the text after the last line feed opens the next.
    const first = chunk.indexOf('\n');
    if (first !== -1 && !mayMatch(chunk)) {
      this.#linePiece(chunk.slice(0, first), this.#length);
      this.#endLine(this.#length + first + 1);
      const last = chunk.lastIndexOf('\n');
      if (last > first) {
        const lines = countNewlines(chunk, first + 1, last + 1);
        this.#newlines += lines;
        this.#line = this.#newLine(this.#length + last + 1, this.#line.index + lines);
      }
      at = last + 1;
    }
    for (;;) {
      const newline = chunk.indexOf('\n', at);
      const end = newline === -1 ? chunk.length : newline;
      this.#linePiece(chunk.slice(at, end), this.#length + at);
      if (newline === -1) break;
      this.#endLine(this.#length + newline + 1);
      at = newline + 1;
    }
    this.#length += chunk.length;
  }

  /** Past the head, at a line start: a plain span may be counted instead of pushed. */
  get canSkip(): boolean {
    return this.#length >= this.#keep && this.#line.start === this.#length && !this.#endsHigh;
  }

  /** A plain span of whole lines: no line of it is an error line, none crosses the head. */
  skip(span: PlainSpan): void {
    this.#length += span.length;
    this.#bytes += span.bytes;
    this.#newlines += span.newlines;
    this.#line = this.#newLine(this.#length, this.#line.index + span.newlines);
    this.#tail = '';
    this.#tailFrom = this.#length;
  }

  #newLine(start: number, index: number): OpenLine {
    return { start, index, prefix: '', carry: '', first: undefined, late: undefined };
  }

  #linePiece(piece: string, pieceStart: number): void {
    const line = this.#line;
    if (piece === '') return;
    if (line.prefix.length <= MAX_ERROR_LINE_CHARS)
      line.prefix += piece.slice(0, MAX_ERROR_LINE_CHARS + 1 - line.prefix.length);
    // Only the line that starts in the head and runs past it needs a match after the head.
    const wantsLate =
      line.start < this.#late && line.late === undefined && pieceStart + piece.length > this.#late;
    if (line.first !== undefined && !wantsLate) return;
    const text = line.carry + piece;
    const base = pieceStart - line.carry.length;
    line.first ??= matchIn(text, 0, base);
    if (wantsLate) line.late = matchIn(text, this.#late - base, base);
    line.carry = text.slice(-ERROR_WORD_CHARS);
  }

  #endLine(nextStart: number): void {
    this.#closeLine(nextStart - 1);
    this.#newlines += 1;
    this.#line = this.#newLine(nextStart, this.#line.index + 1);
  }

  /** `end`: where the line ends (its newline, or the body's end). */
  #closeLine(end: number): void {
    const { first, prefix, index, start, late } = this.#line;
    if (start < this.#late && end > this.#late) this.#boundary = { start, late };
    if (first === undefined) return;
    const line = { text: prefix, index, start, matchEnd: first.end };
    // Lines starting in the head are few (they fit in it); after it only what is shown stays.
    if (start < this.#keep) {
      this.#errors.push(line);
      return;
    }
    this.#pick ??= this.#startPick();
    const shown = this.#pick.offer(line);
    if (shown || !this.#passedOne) {
      if (!shown) this.#passedOne = true;
      this.#errors.push(line);
      this.#lastPassed = undefined;
      return;
    }
    this.#lastPassed = line;
  }

  /** The cut's choice so far, from the lines in the head (the head is whole by now). */
  #startPick(): ErrorPick {
    const end = headEnd(this.#head, Math.floor(this.#avail * HEAD_SHARE));
    const pick = new ErrorPick(errorRoom(this.#avail, end), this.#firstLine);
    for (const line of errorLinesOf(this.#head, this.#errors, this.#boundary, end, Number.MAX_SAFE_INTEGER)) {
      pick.offer(line);
    }
    return pick;
  }

  /** The body as the budget's cut reads it, less one trailing newline (as applyOutputBudget does). */
  finish(): BodyText {
    if (this.#length - this.#tailFrom < this.#keep && this.#tailFrom > 0) {
      throw new Error('the excerpt skipped into the part of the transcript its tail keeps');
    }
    this.#closeLine(this.#length);
    if (this.#lastPassed !== undefined) this.#errors.push(this.#lastPassed);
    this.#lastPassed = undefined;
    let tail = this.#tail.length > this.#keep ? this.#tail.slice(this.#tail.length - this.#keep) : this.#tail;
    let length = this.#length;
    let bytes = this.#bytes;
    let newlines = this.#newlines;
    if (tail.endsWith('\n')) {
      tail = tail.slice(0, -1);
      length -= 1;
      bytes -= 1;
      newlines -= 1;
    }
    return excerptBody({
      head: this.#head,
      tail,
      length,
      bytes,
      newlines,
      errors: this.#errors,
      boundary: this.#boundary,
    });
  }
}

interface ExcerptParts {
  head: string;
  tail: string;
  length: number;
  bytes: number;
  newlines: number;
  errors: PlacedErrorLine[];
  boundary: BoundaryLine | undefined;
}

function excerptBody(parts: ExcerptParts): BodyText {
  const { head, tail, length } = parts;
  const tailBase = length - tail.length;
  const tailBytes = Buffer.byteLength(tail);
  const inHead = (index: number) => index <= head.length;
  const outside = (index: number) =>
    new RangeError(`offset ${index} is in the part of the transcript that was not kept`);
  const bytesBefore = (index: number): number => {
    if (inHead(index)) return Buffer.byteLength(head.slice(0, index));
    if (index >= tailBase)
      return parts.bytes - tailBytes + Buffer.byteLength(tail.slice(0, index - tailBase));
    throw outside(index);
  };
  return {
    length,
    slice(from, to) {
      if (to <= head.length) return head.slice(from, to);
      if (from >= tailBase) return tail.slice(from - tailBase, to - tailBase);
      throw outside(from);
    },
    indexOf(newline, from) {
      // The cut looks for a line feed only from where the tail's share begins, in the kept tail.
      if (from < tailBase) throw outside(from);
      const i = tail.indexOf(newline, from - tailBase);
      return i === -1 ? -1 : i + tailBase;
    },
    lastIndexOf(newline, from) {
      if (from < head.length) return head.lastIndexOf(newline, from);
      throw outside(from);
    },
    charCodeAt(index) {
      if (index < head.length) return head.charCodeAt(index);
      if (index >= tailBase) return tail.charCodeAt(index - tailBase);
      throw outside(index);
    },
    lineIndexAt(index) {
      if (inHead(index)) return countNewlines(head, 0, index);
      if (index >= tailBase) return parts.newlines - countNewlines(tail, index - tailBase, tail.length);
      throw outside(index);
    },
    byteLength(from, to) {
      return bytesBefore(to) - bytesBefore(from);
    },
    errorLines: (from, to) => errorLinesOf(head, parts.errors, parts.boundary, from, to),
  };
}

/** The error lines of [from, to) that an excerpt kept, as the whole text would give them. */
function* errorLinesOf(
  head: string,
  errors: readonly PlacedErrorLine[],
  boundary: BoundaryLine | undefined,
  from: number,
  to: number,
): Iterable<ErrorLine> {
  // A cut inside a line (one longer than the head share): the rest of that line counts,
  // up to `to`; past the head it is known by its first match after the head.
  const lineStart = from === 0 ? 0 : from <= head.length ? head.lastIndexOf('\n', from - 1) + 1 : from;
  if (lineStart < from && from < to) {
    const newline = head.indexOf('\n', from);
    const text = head.slice(from, Math.min(newline === -1 ? head.length : newline, to));
    const late = newline === -1 && boundary?.start === lineStart ? boundary.late : undefined;
    if (ERROR_LINE_PATTERN.test(text) || (late !== undefined && late.start >= from && late.end <= to)) {
      yield { text, index: countNewlines(head, 0, from) };
    }
  }
  for (const line of errors) {
    if (line.start >= to) break;
    if (line.start >= from && line.matchEnd <= to) {
      yield { text: line.text.slice(0, to - line.start), index: line.index };
    }
  }
}
