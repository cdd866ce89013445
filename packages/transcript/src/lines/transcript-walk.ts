import { createAnsiStripper } from '@procmux/ansi';
import type { OutputLog } from '../log/output-log.js';
import type { FullScreenEpisode } from '../screen/full-screen-episode.js';

export interface Checkpoint {
  /** Log byte offset where a transcript line starts (the stripper starts afresh there). */
  offset: number;
  /** That line's 0-based index in the transcript. */
  line: number;
  /**
   * True: every byte from the checkpoint before this one up to this one is printable ASCII, a
   * tab or a line feed, text the stripper gives back as it is (known as it was counted).
   */
  plainBefore?: boolean;
  /**
   * True: plainBefore, and none of those bytes is a letter every error word holds one of
   * (ERROR_WORD_LETTERS), so no error line is there: an excerpt counts them without reading.
   */
  wordFreeBefore?: boolean;
}

export interface WalkOptions {
  /** The full-screen episodes, in order. */
  episodes: readonly FullScreenEpisode[];
  /** The block of the episode still on screen, if any. */
  live: readonly string[] | undefined;
  pageBytes: number;
}

/**
 * The transcript from checkpoint `from` on, as text pieces in order: the history stripped of
 * ANSI, except that each full-screen episode's bytes are skipped and its rendered block stands
 * in their place, on lines of its own. Reads the log a page at a time; a consumer stops when it
 * has its lines. Must read exactly as TranscriptIndex counted.
 */
export function* walkTranscript(log: OutputLog, from: Checkpoint, options: WalkOptions): Generator<string> {
  const { episodes, live, pageBytes } = options;
  const stripper = createAnsiStripper();
  let cursor = from.offset;
  // Text given out after the last line feed: a row that wrapped softly is not in `rest`.
  let open = false;
  let next = 0;
  while (next < episodes.length && episodes[next]!.start < cursor) next += 1;
  for (;;) {
    const episode = episodes[next];
    const stop = episode ? episode.start : log.totalBytes;
    while (cursor < stop) {
      const page = log.read({ cursor, maxBytes: pageBytes });
      if (page.cursor === cursor) break;
      let data = page.data;
      let moved = page.cursor;
      if (moved > stop) {
        data = Buffer.from(data)
          .subarray(0, stop - cursor)
          .toString('utf8');
        moved = stop;
      }
      const text = stripper.push(data);
      if (text !== '') {
        open = !text.endsWith('\n');
        yield text;
      }
      cursor = moved;
    }
    const rest = stripper.flush();
    if (!episode) {
      if (rest !== '') yield rest;
      return;
    }
    if (rest !== '' || open) yield `${rest}\n`;
    open = false;
    const block = episode.lines ?? live ?? [];
    if (block.length > 0) yield `${block.join('\n')}\n`;
    if (episode.end === undefined) return;
    cursor = episode.end;
    next += 1;
  }
}
