// A pipe session's transcript cut to the output budget, read from its log only where the cut
// needs text: the head from the first retained line, the tail from a line start near the end,
// and in between only the parts that may hold an error line or text stripping would change.
// A plain middle (a flood) is counted from the line index, never stripped: the three sampled
// 50 MB one-shots spent 281 ms stripping, 221 ms reading back and 128 ms in push (issue 31).
import { isAscii } from 'node:buffer';
import { createAnsiStripper } from '@procmux/ansi';
import type { Checkpoint } from '../lines/transcript-walk.js';
import type { OutputLog } from '../log/output-log.js';
import { ERROR_WORD_LETTERS, holdsErrorWordLetter } from './error-lines.js';
import { mayMatch } from './excerpt.js';
import { BudgetSink, type TranscriptExcerptRequest, WHOLE_TRANSCRIPT_CHARS } from './transcript-excerpt.js';
import type { OutputBudgetResult } from './truncate.js';

/**
 * Middle bytes decoded and checked at once: line starts are 16 KiB or more apart (one per pipe
 * read of up to 64 KiB in a flood). Small, so each block's string dies young: 1 MiB blocks
 * took a cut of 50 MB 57 MiB over its base, 128 KiB ones 25 MiB, at the same CPU time.
 */
const BLOCK_BYTES = 128 * 1024;
/** A single stretch between two line starts is read whole up to this many blocks, else stripped a page at a time. */
const MAX_BLOCKS_READ_WHOLE = 8;

/**
 * What the ANSI stripper leaves as it is: all but C0 controls (tab and line feed excepted), DEL
 * and C1. Its own run pattern, sticky: about twice as fast as searching for the complement.
 */
const PLAIN_RUN = /[^\x00-\x08\x0b-\x1f\x7f-\x9f]*/y;

const ERROR_WORD_BYTES = ERROR_WORD_LETTERS.map((letter) => letter.charCodeAt(0));

function isPlain(text: string): boolean {
  PLAIN_RUN.lastIndex = 0;
  PLAIN_RUN.test(text);
  return PLAIN_RUN.lastIndex === text.length;
}

function mayHoldErrorWord(text: string): boolean {
  return holdsErrorWordLetter(text) && mayMatch(text);
}

/** Sizes a test makes small: see BudgetSink and BLOCK_BYTES. */
export interface LogExcerptSizes {
  wholeChars?: number;
  blockBytes?: number;
}

/**
 * applyOutputBudget over the transcript of `log` from `starts[0]` (see
 * TranscriptIndex.lineStarts), the same as cutting the whole stripped text, in O(budget +
 * error lines) stripping: the middle is read only as raw text checked for what would need
 * it. `request.firstLine` is the line number of `starts[0]`'s line in the caller's numbering
 * less that line's own number (0: log()'s).
 */
export function excerptLog(
  log: OutputLog,
  starts: readonly Checkpoint[],
  request: TranscriptExcerptRequest,
  pageBytes: number,
  sizes: LogExcerptSizes = {},
): OutputBudgetResult {
  // Held whole up to the same size as budgetTranscript holds it, so that every transcript it
  // held whole is cut the same way.
  const { wholeChars = WHOLE_TRANSCRIPT_CHARS, blockBytes = BLOCK_BYTES } = sizes;
  const first = starts[0]!;
  const sink = new BudgetSink({ ...request, firstLine: (request.firstLine ?? 0) + first.line }, wholeChars);
  const end = log.totalBytes;
  const strip = new PagedStrip(log, sink, pageBytes, first.offset);
  // The head: stripped until the sink has reduced the text and kept its head, at a line start
  // where the stripper is as fresh.
  let next = 1;
  for (; next < starts.length; next++) {
    strip.to(starts[next]!.offset);
    if (sink.canSkip && strip.fresh) break;
  }
  if (next >= starts.length) {
    strip.to(end);
    strip.flush();
    return sink.finish();
  }
  const tail = tailStart(log, starts, next, sink.tailChars, pageBytes);
  // The middle, block by block between line starts: counted when plain, else read.
  const scratch = Buffer.allocUnsafe(blockBytes * MAX_BLOCKS_READ_WHOLE);
  for (let at = next; at < tail; ) {
    let until = at + 1;
    let plain = starts[until]!.plainBefore === true;
    let wordFree = starts[until]!.wordFreeBefore === true;
    while (until < tail && starts[until + 1]!.offset - starts[at]!.offset <= blockBytes) {
      until += 1;
      plain &&= starts[until]!.plainBefore === true;
      wordFree &&= starts[until]!.wordFreeBefore === true;
    }
    middleBlock(scratch, log, sink, starts[at]!, starts[until]!, pageBytes, wordFree ? 'word-free' : plain);
    at = until;
  }
  const fromTail = new PagedStrip(log, sink, pageBytes, starts[tail]!.offset);
  fromTail.to(end);
  fromTail.flush();
  return sink.finish();
}

/**
 * One block of the middle, [from, to) between two line starts; `plain`: the index saw only
 * printable ASCII, tabs and line feeds there, so it is neither decoded nor checked for what
 * the stripper would change unless it holds a letter of an error word (a flood of one letter:
 * 40 of a 50 MB one-shot's 322 ms went to that check); 'word-free': plain and without such a
 * letter, as the index saw it, so not even read (a flood of digits or of one letter: reading
 * back a 50 MB one-shot's spilled middle took 10 of the 15 ms between its exit and the reply).
 */
function middleBlock(
  scratch: Buffer,
  log: OutputLog,
  sink: BudgetSink,
  from: Checkpoint,
  to: Checkpoint,
  pageBytes: number,
  plain: boolean | 'word-free',
): void {
  const length = to.offset - from.offset;
  const skip = { length, bytes: length, newlines: to.line - from.line };
  if (plain === 'word-free' && sink.canSkip) {
    sink.skip(skip);
    return;
  }
  if (length > scratch.length) {
    // One long line (or many escape sequences): stripped a page at a time.
    const strip = new PagedStrip(log, sink, pageBytes, from.offset);
    strip.to(to.offset);
    strip.flush();
    return;
  }
  // Line starts are character boundaries; all-ASCII bytes (a flood's) decode as Latin-1, a
  // fifth of UTF-8's cost. One scratch buffer: a megabyte read per block and left to the
  // collector took the server's peak 80 MiB higher.
  const bytes = log.bytesBetween(from.offset, to.offset, scratch);
  if (plain && sink.canSkip && !ERROR_WORD_BYTES.some((letter) => bytes.includes(letter))) {
    sink.skip(skip);
    return;
  }
  const text = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  if (!plain && !isPlain(text)) {
    const stripper = createAnsiStripper();
    sink.push(stripper.push(text) + stripper.flush());
  } else if (sink.canSkip && !mayHoldErrorWord(text)) {
    sink.skip({ ...skip, length: text.length });
  } else {
    sink.push(text);
  }
}

/**
 * The index of the line start the tail is read from: the latest after the head (`head`) from
 * which the stripped text still reaches `chars` characters. Bytes are never fewer than the
 * characters they strip to, so the search starts `chars` bytes before the end.
 */
function tailStart(
  log: OutputLog,
  starts: readonly Checkpoint[],
  head: number,
  chars: number,
  pageBytes: number,
): number {
  const end = log.totalBytes;
  let back = chars;
  for (;;) {
    const at = Math.max(head, lastAtOrBefore(starts, end - back));
    if (at === head || strippedReaches(log, starts[at]!.offset, chars, pageBytes)) return at;
    back = 2 * (end - starts[at]!.offset);
  }
}

/** The index of the last start at or before `offset` (0 when none is). */
function lastAtOrBefore(starts: readonly Checkpoint[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  let best = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid]!.offset <= offset) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

/** Whether the log from `from` to its end strips to at least `chars` characters. */
function strippedReaches(log: OutputLog, from: number, chars: number, pageBytes: number): boolean {
  const stripper = createAnsiStripper();
  let length = 0;
  for (let cursor = from; length < chars; ) {
    const page = log.read({ cursor, maxBytes: pageBytes });
    length += stripper.push(page.data).length;
    if (page.eof || page.cursor === cursor) return length + stripper.flush().length >= chars;
    cursor = page.cursor;
  }
  return true;
}

/** The log stripped a page at a time into the sink, from one offset on. */
class PagedStrip {
  readonly #stripper = createAnsiStripper();
  readonly #log: OutputLog;
  readonly #sink: BudgetSink;
  readonly #pageBytes: number;
  #at: number;

  constructor(log: OutputLog, sink: BudgetSink, pageBytes: number, from: number) {
    this.#log = log;
    this.#sink = sink;
    this.#pageBytes = pageBytes;
    this.#at = from;
  }

  /** Whether a fresh stripper would read on from here as this one does. */
  get fresh(): boolean {
    return this.#stripper.atGround && this.#stripper.pending === '';
  }

  /** Strips on up to byte `to` (a character boundary). */
  to(to: number): void {
    while (this.#at < to) {
      const maxBytes = Math.min(this.#pageBytes, Math.max(4, to - this.#at));
      const page = this.#log.read({ cursor: this.#at, maxBytes });
      if (page.cursor === this.#at) return;
      let data = page.data;
      let moved = page.cursor;
      // A page of at least 4 bytes may run past `to` (then by less than a character's bytes).
      if (moved > to) {
        data = Buffer.from(data)
          .subarray(0, to - this.#at)
          .toString('utf8');
        moved = to;
      }
      this.#sink.push(this.#stripper.push(data));
      this.#at = moved;
    }
  }

  flush(): void {
    this.#sink.push(this.#stripper.flush());
  }
}
