// Which error-looking lines of a cut middle are shown: in order, each while it still fits in
// the room the cut leaves them. The room is known once the head is (the tail's share is fixed,
// not the tail's cut), so a transcript too big to hold decides each line as it streams past and
// keeps only what it shows (excerpt.ts), with the same result as the whole string.
import type { ErrorLine } from './body-text.js';
import { safeCut } from './cut-point.js';
import { MAX_ERROR_LINE_CHARS } from './error-lines.js';

/** Shares of the characters a cut may show, when it has error lines to show too. */
export const HEAD_SHARE = 0.3;
export const TAIL_SHARE = 0.5;

/** Room for error lines: what the head (ending at `headEnd`) and the tail's share leave. */
export function errorRoom(avail: number, headEnd: number): number {
  return avail - headEnd - Math.floor(avail * TAIL_SHARE);
}

export class ErrorPick {
  readonly kept: string[] = [];
  /** Lines offered, kept or not. */
  candidates = 0;
  /** UTF-8 bytes of the kept lines' text as shown. */
  keptBytes = 0;
  #used = 0;

  /** `firstLine`: the 0-based log index of the body's first line (entries say 1-based). */
  constructor(
    private readonly room: number,
    private readonly firstLine: number,
  ) {}

  /** Offers the next error line of the middle; true when it is kept. */
  offer(line: ErrorLine): boolean {
    this.candidates += 1;
    const shown =
      line.text.length > MAX_ERROR_LINE_CHARS
        ? line.text.slice(0, safeCut(line.text, MAX_ERROR_LINE_CHARS))
        : line.text;
    const entry = `[line ${(this.firstLine + line.index + 1).toLocaleString('en-US')}] ${shown}${shown === line.text ? '' : ' [...]'}`;
    if (this.#used + entry.length + 1 > this.room) return false;
    this.kept.push(entry);
    this.#used += entry.length + 1;
    this.keptBytes += Buffer.byteLength(shown);
    return true;
  }
}
