// Plain output is held back from the emulator until someone reads the screen, and only its
// tail is ever parsed. Under a PTY flood xterm.js's parse and print were ~80% of the busy
// time, while what a person sees at the end is only the last screenful plus the scrollback.
//
// Why dropping is exact: text of printable ASCII, tab, CR and LF changes no mode, colour,
// charset or tab stop; it only writes cells and moves the cursor. After a CR the column is 0
// whatever came before; after `rows - 1` more line feeds the cursor is on the last row, and
// each further line feed scrolls a fresh blank row in. So once a kept tail holds, after a CR,
// enough line feeds to scroll the whole buffer (scrollback + screen) out, every row left was
// written by the tail alone, and the rows (and markers) the dropped text touched are gone
// either way. That holds only while the scroll region is the whole screen and the parser is at
// ground when the held text starts: the caller checks both before a drop.
//
// The text is held as bytes (it is ASCII: one byte a character) outside the JavaScript heap.
// Held as the chunk strings, the last ~5,000 lines outlived every young-generation collection,
// V8 grew the young generation to its largest for them, and that made it run a full
// mark-compact every collection or two: 6-13 per 150 MB PTY flood where a bare reader had 1.
import { plainLineFeeds } from './plain-scan/scan.js';

/** Characters held at most while a drop cannot be made: past this the text goes to the parser. */
const MAX_HELD_CHARS = 4 * 1024 * 1024;
/** The store a screen keeps between reads; a larger one grown by a flood is let go at take(). */
const INITIAL_BYTES = 16 * 1024;
const LF = 0x0a;
const CR = 0x0d;

export interface PlainHoldOptions {
  /** Line feeds a kept tail needs after its first CR: enough to scroll the whole buffer out. */
  keepLines: () => number;
  /** Whether the emulator parsed everything before the held text and is in a state a drop keeps exact. */
  canDrop: () => boolean;
}

/** Plain chunks not yet handed to the parser, in order; older ones dropped once a tail covers them. */
export class PlainHold {
  #bytes = Buffer.allocUnsafe(INITIAL_BYTES);
  #used = 0;
  // Where each held chunk ends in #bytes, and its line feeds, so a drop skips whole chunks.
  #ends: number[] = [];
  #feeds: number[] = [];
  #lines = 0;
  // Line feeds held when a drop was last tried and could not be made: retried after as many again.
  #nextTry = 0;

  constructor(private readonly options: PlainHoldOptions) {}

  /**
   * Holds `chunk` if it is plain text and returns true; false for anything else (the caller
   * hands out what is held, then the chunk). May also ask to hand out what is held: `take()`
   * returns it when `full` is true.
   */
  hold(chunk: string): boolean {
    const feeds = plainLineFeeds(chunk);
    if (feeds < 0) return false;
    this.#reserve(chunk.length);
    this.#used += this.#bytes.write(chunk, this.#used, 'latin1');
    this.#ends.push(this.#used);
    this.#feeds.push(feeds);
    this.#lines += feeds;
    const keep = this.options.keepLines();
    if (this.#lines >= 2 * keep && this.#lines >= this.#nextTry) this.#drop(keep);
    return true;
  }

  /**
   * The held text from the last CR with `keep` line feeds after it: once parsed it would leave
   * nothing of what was there before (see the top of this file). Undefined when no such CR is
   * held or a drop would not be exact now. Holds on to everything either way.
   */
  coveringTail(keep: number): string | undefined {
    if (this.#lines < keep || !this.options.canDrop()) return undefined;
    const cut = this.#lastCoveringCr(keep);
    return cut === undefined ? undefined : this.#bytes.toString('latin1', cut, this.#used);
  }

  /** Held more than a drop could shed: the caller should hand it to the parser now. */
  get full(): boolean {
    return this.#used > MAX_HELD_CHARS;
  }

  /** Whether anything is held. */
  get empty(): boolean {
    return this.#used === 0;
  }

  /** Everything held, as one string (the parser takes it in one write); holds nothing after. */
  take(): string {
    const text = this.#bytes.toString('latin1', 0, this.#used);
    this.clear();
    return text;
  }

  /** Lets everything held go, and a store a flood grew with it (a disposed screen keeps none). */
  clear(): void {
    if (this.#bytes.length > INITIAL_BYTES) this.#bytes = Buffer.allocUnsafe(INITIAL_BYTES);
    this.#used = 0;
    this.#ends = [];
    this.#feeds = [];
    this.#lines = 0;
    this.#nextTry = 0;
  }

  #reserve(more: number): void {
    if (this.#used + more <= this.#bytes.length) return;
    let size = this.#bytes.length * 2;
    while (size < this.#used + more) size *= 2;
    const bytes = Buffer.allocUnsafe(size);
    this.#bytes.copy(bytes, 0, 0, this.#used);
    this.#bytes = bytes;
  }

  // Keeps the tail from the last CR that still has `keep` line feeds after it.
  #drop(keep: number): void {
    const cut = this.options.canDrop() ? this.#lastCoveringCr(keep) : undefined;
    // None, or the first character held: nothing to drop.
    if (cut === undefined || cut === 0) {
      this.#nextTry = this.#lines + keep;
      return;
    }
    this.#bytes.copy(this.#bytes, 0, cut, this.#used);
    this.#used -= cut;
    let first = 0;
    while (this.#ends[first]! <= cut) first += 1;
    const ends = this.#ends.slice(first);
    const feeds = this.#feeds.slice(first);
    for (let i = 0; i < ends.length; i++) ends[i]! -= cut;
    feeds[0] = countLineFeeds(this.#bytes, 0, ends[0]!);
    this.#ends = ends;
    this.#feeds = feeds;
    this.#lines = 0;
    for (const count of feeds) this.#lines += count;
    this.#nextTry = 0;
  }

  /** Where the last CR with at least `keep` line feeds after it is held, if any. */
  #lastCoveringCr(keep: number): number | undefined {
    // The chunk holding the keep-th line feed from the end, skipping whole chunks.
    let i = this.#ends.length - 1;
    let seen = 0;
    while (i >= 0 && seen + this.#feeds[i]! < keep) seen += this.#feeds[i--]!;
    if (i < 0) return undefined;
    let at = this.#ends[i]!;
    while (seen < keep) {
      at = this.#bytes.lastIndexOf(LF, at - 1);
      seen += 1;
    }
    // Then back to a CR before it, in this chunk or an earlier one.
    const cr = at === 0 ? -1 : this.#bytes.lastIndexOf(CR, at - 1);
    return cr === -1 ? undefined : cr;
  }
}

function countLineFeeds(bytes: Buffer, from: number, to: number): number {
  let count = 0;
  for (let at = bytes.indexOf(LF, from); at !== -1 && at < to; at = bytes.indexOf(LF, at + 1)) count += 1;
  return count;
}
