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

/** Printable ASCII, tab, CR, LF: text that moves the cursor and writes cells, nothing else. */
const NOT_PLAIN = /[^\t\n\r\x20-\x7e]/;

/** Characters held at most while a drop cannot be made: past this the text goes to the parser. */
const MAX_HELD_CHARS = 4 * 1024 * 1024;

export interface PlainHoldOptions {
  /** Line feeds a kept tail needs after its first CR: enough to scroll the whole buffer out. */
  keepLines: () => number;
  /** Whether the emulator parsed everything before the held text and is in a state a drop keeps exact. */
  canDrop: () => boolean;
}

/** Plain chunks not yet handed to the parser, in order; older ones dropped once a tail covers them. */
export class PlainHold {
  #chunks: string[] = [];
  // Line feeds in each held chunk, so a drop skips whole chunks.
  #feeds: number[] = [];
  #chars = 0;
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
    if (NOT_PLAIN.test(chunk)) return false;
    const feeds = countLineFeeds(chunk);
    this.#chunks.push(chunk);
    this.#feeds.push(feeds);
    this.#chars += chunk.length;
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
    const cut = lastCoveringCr(this.#chunks, this.#feeds, keep);
    if (cut === undefined) return undefined;
    return this.#chunks[cut.chunk]!.slice(cut.at) + this.#chunks.slice(cut.chunk + 1).join('');
  }

  /** Held more than a drop could shed: the caller should hand it to the parser now. */
  get full(): boolean {
    return this.#chars > MAX_HELD_CHARS;
  }

  /** Whether anything is held. */
  get empty(): boolean {
    return this.#chunks.length === 0;
  }

  /** Everything held, as one string (the parser takes it in one write); holds nothing after. */
  take(): string {
    const text = this.#chunks.length === 1 ? this.#chunks[0]! : this.#chunks.join('');
    this.#chunks = [];
    this.#feeds = [];
    this.#chars = 0;
    this.#lines = 0;
    this.#nextTry = 0;
    return text;
  }

  // Keeps the tail from the last CR that still has `keep` line feeds after it.
  #drop(keep: number): void {
    const cut = this.options.canDrop() ? findCut(this.#chunks, this.#feeds, keep) : undefined;
    if (cut === undefined) {
      this.#nextTry = this.#lines + keep;
      return;
    }
    const kept = this.#chunks.slice(cut.chunk);
    const feeds = this.#feeds.slice(cut.chunk);
    kept[0] = kept[0]!.slice(cut.at);
    feeds[0] = countLineFeeds(kept[0]);
    this.#chunks = kept;
    this.#feeds = feeds;
    this.#chars = 0;
    this.#lines = 0;
    for (let i = 0; i < kept.length; i++) {
      this.#chars += kept[i]!.length;
      this.#lines += feeds[i]!;
    }
    this.#nextTry = 0;
  }
}

function countLineFeeds(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}

/**
 * Where the kept tail starts: at a CR with at least `keep` line feeds after it, the last such
 * CR. Undefined when there is none (a stream of bare line feeds: the column carries over), or
 * when it is the first character held (nothing to drop).
 */
function findCut(
  chunks: readonly string[],
  feeds: readonly number[],
  keep: number,
): { chunk: number; at: number } | undefined {
  const cut = lastCoveringCr(chunks, feeds, keep);
  return cut && (cut.chunk > 0 || cut.at > 0) ? cut : undefined;
}

/** The last CR with at least `keep` line feeds after it, if any. */
function lastCoveringCr(
  chunks: readonly string[],
  feeds: readonly number[],
  keep: number,
): { chunk: number; at: number } | undefined {
  // The chunk holding the keep-th line feed from the end, skipping whole chunks.
  let i = chunks.length - 1;
  let seen = 0;
  while (i >= 0 && seen + feeds[i]! < keep) seen += feeds[i--]!;
  if (i < 0) return undefined;
  const chunk = chunks[i]!;
  let at = chunk.length;
  while (seen < keep) {
    at = chunk.lastIndexOf('\n', at - 1);
    seen += 1;
  }
  // Then back to a CR before it.
  for (; i >= 0; i--, at = i >= 0 ? chunks[i]!.length : 0) {
    const cr = at === 0 ? -1 : chunks[i]!.lastIndexOf('\r', at - 1);
    if (cr !== -1) return { chunk: i, at: cr };
  }
  return undefined;
}
