import { createAnsiStripper } from '@procmux/ansi';
import { integerOption } from '@procmux/core-types';
import type { TerminalScreen } from '@procmux/screen';
import type { OutputLog } from '../log/output-log.js';
import type { LogResult } from './log-result.js';

const DEFAULT_LOG_LINES = 200;
const MAX_LOG_LINES = 100_000;

/**
 * log()'s window, checked: `limit` lines (200 by default, at most 100,000), from `offset` when
 * given (null counts as absent), else the last ones.
 */
export function logWindow(options: { offset?: number; limit?: number }): {
  limit: number;
  offset: number | undefined;
} {
  const limit = integerOption('limit', options.limit ?? undefined, {
    min: 1,
    max: MAX_LOG_LINES,
    default: DEFAULT_LOG_LINES,
  });
  const offset =
    options.offset === undefined
      ? undefined
      : integerOption('offset', options.offset ?? undefined, {
          min: 0,
          max: Number.MAX_SAFE_INTEGER,
          default: 0,
        });
  return { limit, offset };
}

/**
 * The session's transcript as text chunks in order: the rendered screen (scrollback + screen)
 * for emulated sessions, else the retained history of both streams, ANSI-stripped page by
 * page. Never holds the whole history as one string: a 64 MiB history read as one string,
 * stripped, split and joined took several times its size.
 */
export async function* transcriptChunks(
  log: OutputLog,
  screen: TerminalScreen | undefined,
  pageBytes: number,
): AsyncGenerator<string> {
  if (screen) {
    yield await screen.renderFull();
    return;
  }
  const stripper = createAnsiStripper();
  let cursor = 0;
  for (;;) {
    const page = log.read({ cursor, maxBytes: pageBytes });
    const text = stripper.push(page.data);
    if (text !== '') yield text;
    if (page.eof || page.cursor === cursor) break;
    cursor = page.cursor;
  }
  const rest = stripper.flush();
  if (rest !== '') yield rest;
}

/**
 * A window of the transcript's lines: the last 200 by default; `offset`/`limit` page from the
 * start. Reads the chunks once and keeps only the lines in the window.
 */
export async function pageTranscript(
  chunks: AsyncIterable<string>,
  options: { offset?: number; limit?: number },
): Promise<LogResult> {
  const { limit: count, offset } = logWindow(options);
  // The lines in the window; in tail mode it slides as lines come.
  let kept: string[] = [];
  let total = 0;
  let current: string[] = [];
  const wanted = (index: number) => offset === undefined || (index >= offset && index < offset + count);
  const endLine = () => {
    if (wanted(total)) {
      kept.push(current.join(''));
      if (offset === undefined && kept.length > 2 * count) {
        kept = kept.slice(kept.length - count);
      }
    }
    current = [];
    total += 1;
  };
  let open = false;
  for await (const chunk of chunks) {
    let at = 0;
    for (;;) {
      const newline = chunk.indexOf('\n', at);
      const end = newline === -1 ? chunk.length : newline;
      if (end > at) {
        if (wanted(total)) current.push(chunk.slice(at, end));
        open = true;
      }
      if (newline === -1) break;
      endLine();
      open = false;
      at = newline + 1;
    }
  }
  if (open) endLine();
  if (offset === undefined && kept.length > count) {
    kept = kept.slice(kept.length - count);
  }
  const start = offset === undefined ? Math.max(0, total - count) : offset;
  return {
    text: kept.join('\n'),
    offset: Math.min(start, total),
    lines: kept.length,
    totalLines: total,
    cut: start > 0 || start + kept.length < total,
    droppedLines: 0,
    droppedBytes: 0,
  };
}
