import { stripAnsi } from '@procmux/ansi';
import { expect } from 'vitest';
import type { LogResult } from '../../src/lines/log-result.js';
import type { SessionTranscript } from '../../src/session-transcript.js';

/** A transcript's lines as log() numbers them: the last, unfinished one included. */
function linesOf(text: string): string[] {
  const lines = stripAnsi(text).split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * What log() may page after a cap dropped history: the lines whose start is retained (the
 * oldest retained byte starts one when the last byte dropped was a line feed), numbered as
 * the whole text numbers them. For a log that never spilled (it knows that last byte).
 */
export function retainedLines(
  written: string,
  firstRetained: number,
): { first: number; lines: string[]; start: number } {
  const all = linesOf(written);
  const bytes = Buffer.from(written, 'utf8');
  let start = firstRetained;
  if (firstRetained > 0 && bytes[firstRetained - 1] !== 0x0a) {
    const newline = bytes.indexOf(0x0a, firstRetained);
    start = newline === -1 ? bytes.length : newline + 1;
  }
  const kept = linesOf(bytes.subarray(start).toString('utf8')).length;
  return { first: all.length - kept, lines: all.slice(all.length - kept), start };
}

/** Pages the whole retained transcript `limit` lines at a time, then its tail; each page as the oracle says. */
export async function expectPagesExact(
  t: SessionTranscript,
  written: string,
  limit: number,
  pageBytes = 1024,
): Promise<void> {
  const { first, lines, start } = retainedLines(written, t.log.firstRetainedOffset);
  const total = first + lines.length;
  const check = (page: LogResult, from: number) => {
    const want = lines.slice(from - first, from - first + limit);
    expect(page).toEqual({
      text: want.join('\n'),
      offset: from,
      lines: want.length,
      totalLines: total,
      cut: from > 0 || from + want.length < total,
      droppedLines: first,
      droppedBytes: start,
    });
  };
  // From before the first whole line (clamped to it) through one page past the end.
  check(await t.page({ offset: 0, limit }, pageBytes), first);
  for (let from = first; from <= total; from += limit)
    check(await t.page({ offset: from, limit }, pageBytes), from);
  check(await t.page({ limit }, pageBytes), Math.max(first, total - limit));
}
