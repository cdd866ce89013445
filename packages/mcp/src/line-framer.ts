import { IdScanner, type RecoveredId } from './id-scanner.js';

/** What the framer found in the byte stream. */
export type Frame =
  | { kind: 'line'; text: string }
  /** A line longer than the limit: never held, only measured and scanned for its id. */
  | { kind: 'oversized'; bytes: number; id: RecoveredId };

const NEWLINE = 0x0a;

/**
 * Splits a stream of bytes into newline-delimited lines of at most `maxLineBytes`. A longer
 * line is dropped as it streams (after the limit, nothing of it is buffered) and reported
 * once it ends, with its size and the id found in it.
 */
export class LineFramer {
  readonly maxLineBytes: number;
  #parts: Buffer[] = [];
  #held = 0;
  /** Set while discarding an oversized line. */
  #overflow: { bytes: number; scanner: IdScanner } | undefined;

  constructor(maxLineBytes: number) {
    this.maxLineBytes = maxLineBytes;
  }

  /** Feeds a chunk; returns the frames it completed, in order. */
  push(chunk: Buffer): Frame[] {
    const frames: Frame[] = [];
    let at = 0;
    while (at < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, at);
      const end = newline === -1 ? chunk.length : newline;
      this.#take(chunk.subarray(at, end));
      if (newline === -1) break;
      frames.push(this.#endLine());
      at = newline + 1;
    }
    return frames;
  }

  #take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.#overflow) {
      this.#overflow.bytes += piece.length;
      this.#overflow.scanner.push(piece);
      return;
    }
    if (this.#held + piece.length <= this.maxLineBytes) {
      this.#parts.push(piece);
      this.#held += piece.length;
      return;
    }
    // Over the limit: scan what was held and let go of it.
    const scanner = new IdScanner();
    for (const part of this.#parts) scanner.push(part);
    scanner.push(piece);
    this.#overflow = { bytes: this.#held + piece.length, scanner };
    this.#parts = [];
    this.#held = 0;
  }

  #endLine(): Frame {
    const overflow = this.#overflow;
    if (overflow) {
      this.#overflow = undefined;
      overflow.scanner.end();
      return { kind: 'oversized', bytes: overflow.bytes, id: overflow.scanner.id };
    }
    const text = Buffer.concat(this.#parts, this.#held).toString('utf8').replace(/\r$/, '');
    this.#parts = [];
    this.#held = 0;
    return { kind: 'line', text };
  }
}
