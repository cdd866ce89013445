import { integerOption } from '@procmux/core-types';

/** Output with its cursor position queries removed, and how many there were. */
export interface DsrStripResult {
  text: string;
  /** Queries removed; each one wants one {@link cursorPositionReport} written back. */
  count: number;
}

/** A split-safe query stripper for one output stream. */
export interface DsrStripper {
  /** Removes the queries a chunk completes; a possible query prefix at its end is held back. */
  push(chunk: string): DsrStripResult;
  /** Ends the stream: releases held bytes as text (an unfinished query is not a query). */
  flush(): DsrStripResult;
}

// DSR 6 (CPR request) and its DEC form. Nothing else is removed: the rest of the stream
// still goes to the screen and the log byte for byte.
const DSR_QUERY = /\x1b\[\??6n/g;

/**
 * Removes cursor position queries (`ESC[6n`, `ESC[?6n`) from one chunk and counts them. A
 * program that sends one waits for the answer; the caller writes a
 * {@link cursorPositionReport} per query to its stdin.
 *
 * @example
 * stripDsrRequests('>>> \x1b[6n'); // { text: '>>> ', count: 1 }
 */
export function stripDsrRequests(chunk: string): DsrStripResult {
  // ESC first: a one-character search, and a flood of digits holds no ESC (but many a '6').
  if (!chunk.includes('\x1b') || !chunk.includes('6n')) return { text: chunk, count: 0 };
  let count = 0;
  const text = chunk.replace(DSR_QUERY, () => {
    count++;
    return '';
  });
  return { text, count };
}

/** Length of the longest end of `text` that could still become a query. */
function partialQueryLength(text: string): number {
  if (text.endsWith('\x1b[?6')) return 4;
  if (text.endsWith('\x1b[6') || text.endsWith('\x1b[?')) return 3;
  if (text.endsWith('\x1b[')) return 2;
  return text.endsWith('\x1b') ? 1 : 0;
}

/**
 * Creates a {@link DsrStripper}: like {@link stripDsrRequests} over a stream, including a
 * query split across chunks. A chunk ending in `ESC`, `ESC[`, `ESC[?`, `ESC[6` or `ESC[?6`
 * holds those bytes until the next chunk decides what they are.
 */
export function createDsrStripper(): DsrStripper {
  let held = '';
  return {
    push(chunk) {
      const text = held === '' ? chunk : held + chunk;
      const keep = partialQueryLength(text);
      held = keep === 0 ? '' : text.slice(text.length - keep);
      return stripDsrRequests(keep === 0 ? text : text.slice(0, text.length - keep));
    },
    flush() {
      const text = held;
      held = '';
      return { text, count: 0 };
    },
  };
}

/**
 * The terminal's answer to a cursor position query: `ESC[<row>;<col>R`, 1-based.
 *
 * @example
 * cursorPositionReport(1, 1); // '\x1b[1;1R'
 */
export function cursorPositionReport(row: number, col: number): string {
  checkPosition('row', row);
  checkPosition('col', col);
  return `\x1b[${row};${col}R`;
}

function checkPosition(name: string, value: unknown): void {
  integerOption(name, value, { min: 1, max: Number.MAX_SAFE_INTEGER, required: true });
}
