import { createAnsiStripper } from '@procmux/ansi';
import type { OutputLog } from '@procmux/registry';
import { logWindow } from './transcript.js';
import type { LogResult } from './types.js';

/** Bytes of history between two checkpoints at least: a page reads at most about this much more. */
const CHECKPOINT_BYTES = 16 * 1024;
/** A chunk's text after its last line feed longer than this may have wrapped: no checkpoint. */
const MAX_TAIL_CHARS = 1_024;

interface Checkpoint {
  /** Log byte offset where a transcript line starts. */
  offset: number;
  /** That line's 0-based index in the transcript. */
  line: number;
}

/**
 * Counts the transcript's lines as output arrives (the same streaming ANSI stripper log()
 * pages with) and remembers, every CHECKPOINT_BYTES or so, the byte offset where a line
 * starts. A page then strips from the nearest checkpoint at or before its first line, so it
 * costs O(page), not O(history): 64 MiB was re-stripped on every call before.
 */
export class TranscriptIndex {
  readonly #stripper = createAnsiStripper();
  #lines = 0;
  #checkpoints: Checkpoint[] = [{ offset: 0, line: 0 }];

  /** Call with each chunk as it is appended, and the log's byte count before the append. */
  add(chunk: string, offsetBefore: number): void {
    const out = this.#stripper.push(chunk);
    for (let at = out.indexOf('\n'); at !== -1; at = out.indexOf('\n', at + 1)) this.#lines += 1;
    const last = this.#checkpoints[this.#checkpoints.length - 1]!;
    if (offsetBefore + chunk.length * 3 - last.offset < CHECKPOINT_BYTES) return;
    const newline = chunk.lastIndexOf('\n');
    if (newline === -1) return;
    // The rest of the chunk must be plain text on the line after: no escape sequence that a
    // fresh stripper would read differently, no row long enough to have wrapped.
    const tail = chunk.length - newline - 1;
    if (tail > MAX_TAIL_CHARS || chunk.indexOf('\x1b', newline) !== -1) return;
    const offset = offsetBefore + Buffer.byteLength(chunk.slice(0, newline + 1));
    if (offset - last.offset < CHECKPOINT_BYTES) return;
    this.#checkpoints.push({ offset, line: this.#lines });
  }

  /** Lines in the whole transcript, the unfinished last one included. */
  get totalLines(): number {
    return this.#lines + (this.#stripper.pending === '' ? 0 : 1);
  }

  /** The first line the retained history still holds whole, and where it starts. */
  firstPageable(log: OutputLog): Checkpoint {
    const floor = log.firstRetainedOffset;
    // Checkpoints below the retained history are of no more use.
    let drop = 0;
    while (drop < this.#checkpoints.length - 1 && this.#checkpoints[drop]!.offset < floor) drop += 1;
    if (drop > 0) this.#checkpoints = this.#checkpoints.slice(drop);
    const first = this.#checkpoints[0]!;
    // Nothing retained starts a known line yet (a single huge line): only the end is left.
    if (first.offset < floor) return { offset: log.totalBytes, line: this.totalLines };
    return first;
  }

  /** The latest checkpoint at or before `line` (at least `from`). */
  checkpointFor(line: number, from: Checkpoint): Checkpoint {
    let lo = 0;
    let hi = this.#checkpoints.length - 1;
    let best = from;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const cp = this.#checkpoints[mid]!;
      if (cp.line <= line) {
        if (cp.offset >= from.offset) best = cp;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return best;
  }

  /**
   * A window of the transcript's lines, numbered from the first line ever written (so an
   * offset stays valid as the caps drop old output). Without offset the last `limit` lines.
   * Lines the caps dropped are counted in `droppedLines`/`droppedBytes`, never returned.
   */
  page(log: OutputLog, options: { offset?: number; limit?: number }, pageBytes: number): LogResult {
    const { limit: count, offset: asked } = logWindow(options);
    const total = this.totalLines;
    const first = this.firstPageable(log);
    const start = Math.max(first.line, asked ?? Math.max(0, total - count));
    const end = Math.min(total, start + count);
    const kept: string[] = [];
    if (start < end) {
      const from = this.checkpointFor(start, first);
      const stripper = createAnsiStripper();
      let line = from.line;
      let current = '';
      const take = (text: string): boolean => {
        let at = 0;
        for (;;) {
          const newline = text.indexOf('\n', at);
          if (newline === -1) {
            if (line >= start) current += text.slice(at);
            return false;
          }
          if (line >= start) kept.push(current + text.slice(at, newline));
          current = '';
          line += 1;
          if (line >= end) return true;
          at = newline + 1;
        }
      };
      let cursor = from.offset;
      let done = false;
      while (!done) {
        const page = log.read({ cursor, maxBytes: pageBytes });
        done = take(stripper.push(page.data));
        if (page.eof || page.cursor === cursor) break;
        cursor = page.cursor;
      }
      if (!done) {
        take(stripper.flush());
        if (line < end && current !== '') kept.push(current);
      }
    }
    const offset = Math.min(start, total);
    return {
      text: kept.join('\n'),
      offset,
      lines: kept.length,
      totalLines: total,
      cut: start > 0 || start + kept.length < total,
      droppedLines: first.line,
      droppedBytes: first.offset,
    };
  }
}
