import { stripAnsi } from '@procmux/ansi';
import type { OutputLog } from '@procmux/registry';
import type { TerminalScreen } from '@procmux/screen';
import { integerOption } from './checks.js';
import type { LogResult } from './types.js';

const DEFAULT_LOG_LINES = 200;
const MAX_LOG_LINES = 100_000;

/**
 * The session's transcript as lines: the rendered screen (scrollback + screen) for emulated
 * sessions, else the ANSI-stripped retained history of both streams.
 */
export async function transcriptLines(
  log: OutputLog,
  screen: TerminalScreen | undefined,
  pageBytes: number,
): Promise<string[]> {
  let text: string;
  if (screen) {
    text = await screen.renderFull();
  } else {
    const parts: string[] = [];
    let cursor = 0;
    for (;;) {
      const page = log.read({ cursor, maxBytes: pageBytes });
      parts.push(page.data);
      if (page.eof || page.cursor === cursor) break;
      cursor = page.cursor;
    }
    text = stripAnsi(parts.join(''));
  }
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** The last 200 lines by default; `offset`/`limit` page from the start. */
export function pageLines(lines: readonly string[], options: { offset?: number; limit?: number }): LogResult {
  const count = integerOption('limit', options.limit, DEFAULT_LOG_LINES, 1, MAX_LOG_LINES);
  const start =
    options.offset === undefined
      ? Math.max(0, lines.length - count)
      : integerOption('offset', options.offset, 0, 0);
  const slice = lines.slice(start, start + count);
  return {
    text: slice.join('\n'),
    offset: Math.min(start, lines.length),
    lines: slice.length,
    totalLines: lines.length,
    cut: start > 0 || start + slice.length < lines.length,
  };
}
