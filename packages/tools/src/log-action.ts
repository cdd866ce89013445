import { bodyRoom } from '@procmux/transcript';
import type { ActionContext } from './action-context.js';
import { sessionReply } from './action-context.js';
import { sessionStateLine } from './results.js';
import { MAX_LOG_LIMIT } from './schemas.js';
import type { ToolResult } from './types.js';

/** Room kept for the footer, which is composed after the page is fitted. */
const FOOTER_RESERVE = 400;

/**
 * log: lines of the history. Without offset, the last `limit` lines (200 by default); with
 * offset, `limit` lines from there. A page is never cut inside: when it does not fit the
 * output budget it is shortened, from its end (offset given) or its start (a tail), to the
 * whole lines that fit, and the footer names the lines shown and the exact next call, with
 * the largest limit that fits the budget at the line lengths just measured.
 */
export async function logAction(ctx: ActionContext): Promise<ToolResult> {
  const { offset, limit } = ctx.values;
  const session = ctx.session();
  const page = await session.log({
    ...(offset !== undefined ? { offset } : {}),
    ...(limit !== undefined ? { limit } : {}),
  });
  const total = page.totalLines;
  const notes: string[] = [];
  if (page.droppedLines > 0) {
    notes.push(
      `(The history cap dropped the first ${fmt(page.droppedLines)} lines (${fmt(page.droppedBytes)} bytes); ` +
        `line ${fmt(page.droppedLines + 1)} is the oldest still kept.)`,
    );
  }
  if (total === 0 || page.lines === 0) {
    if (total > 0) notes.push(`(offset ${offset} is past the end: the log has ${fmt(total)} lines.)`);
    return sessionReply(ctx, session, {
      body: total === 0 ? '(no output yet)' : '',
      notes,
      data: { lines: { offset: page.offset, count: 0, total } },
    });
  }
  const tail = offset === undefined;
  const lines = page.text.split('\n');
  const room =
    bodyRoom({ budget: ctx.options.outputBudget, status: sessionStateLine(session), header: '' }) -
    FOOTER_RESERVE -
    notes.reduce((n, note) => n + note.length + 1, 0);
  const fit = fitLines(lines, room, tail);
  const first = page.offset + fit.start;
  const count = fit.count;
  const shortened = count < lines.length;
  // The largest page that fits, at the mean length of the lines just read.
  const chars = lines.reduce((n, line) => n + line.length + 1, 0);
  const fitting = Math.max(1, Math.min(MAX_LOG_LIMIT, Math.floor(room / Math.max(1, chars / lines.length))));
  const asked = limit ?? 200;
  const nextLimit = shortened ? Math.max(1, Math.min(fitting, count)) : asked;
  const id = session.id;
  const span = `lines ${fmt(first + 1)}-${fmt(first + count)} of ${fmt(total)}`;
  const why = shortened
    ? ` The ${fmt(lines.length)}-line page was shortened to the whole lines that fit the ${fmt(ctx.options.outputBudget)}-character budget.`
    : '';
  let next: { offset: number; limit: number } | undefined;
  let footer: string;
  if (tail) {
    const earlier = Math.min(first, nextLimit);
    next = first > 0 ? { offset: first - earlier, limit: earlier } : undefined;
    footer =
      `(Showing the last ${fmt(count)} lines: ${span}.${why}` +
      (next
        ? ` Earlier lines: process action=log session_id=${id} offset=${next.offset} limit=${next.limit}; offset 0 is the first line.)`
        : ')');
  } else {
    const end = first + count;
    next = end < total ? { offset: end, limit: Math.min(nextLimit, total - end) } : undefined;
    footer =
      `(${span[0]!.toUpperCase()}${span.slice(1)}.${why}` +
      (next
        ? ` Next: process action=log session_id=${id} offset=${next.offset} limit=${next.limit}.)`
        : ' That is the end of the log.)');
  }
  // A page of every line, from the first, needs no footer.
  const whole = first === 0 && count === total;
  return sessionReply(ctx, session, {
    body: lines.slice(fit.start, fit.start + count).join('\n'),
    notes: [...notes, whole ? undefined : footer],
    firstLine: first,
    data: {
      lines: {
        offset: first,
        count,
        total,
        ...(next ? { next } : {}),
        ...(shortened ? { shortenedFrom: lines.length } : {}),
      },
    },
  });
}

/** The whole lines that fit `room` characters: the first ones, or the last ones for a tail. */
function fitLines(lines: string[], room: number, tail: boolean): { start: number; count: number } {
  let used = 0;
  let count = 0;
  for (let k = 0; k < lines.length; k += 1) {
    const line = lines[tail ? lines.length - 1 - k : k]!;
    if (count > 0 && used + line.length + 1 > room) break;
    used += line.length + 1;
    count += 1;
  }
  return { start: tail ? lines.length - count : 0, count };
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}
