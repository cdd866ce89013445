// The output budget: what a model reads when a process printed more than one result may hold.

import { type BodyText, stringBody } from './body-text.js';
import { headEnd as headEndAt, safeCut } from './cut-point.js';
import { ERROR_LINE_PATTERN, MAX_ERROR_LINE_CHARS } from './error-lines.js';
import { ErrorPick, errorRoom, HEAD_SHARE, TAIL_SHARE } from './error-pick.js';

export { ERROR_LINE_PATTERN, MAX_ERROR_LINE_CHARS };

/** Room kept for the cut notice itself, so the result stays within the budget. */
export const NOTICE_RESERVE = 420;

/** Smallest room the body gets, even when header and status eat the whole budget. */
export const MIN_BODY_CHARS = 200;

export interface OutputBudgetRequest {
  /** The process output to show (may be cut). */
  body: string;
  /** Most characters (UTF-16 code units) the whole composed text may have. */
  budget: number;
  /** Lines before the body (a "Started session ..." line); never cut. */
  header?: string;
  /** Lines after the body (notes and the state line); never cut. */
  status?: string;
  /** 0-based index of the body's first line in the session's `log`, so the notice can say where to page. */
  firstLine?: number;
  /** The session the notice tells the model to page. */
  sessionId?: string;
  /**
   * The notice's last sentence: how to page what was left out. The tools say it in their own
   * words (`process action=log ...`); without it, `log({ offset, limit })`.
   */
  pageHint?: PageHint;
}

/** Where the cut lines can be read: the session, the 0-based `log` offset, the page size. */
export type PageHint = (page: { sessionId: string | undefined; offset: number; limit: number }) => string;

/** The words of a library host's session handle: `log({ offset, limit })`. */
export const logPageHint: PageHint = ({ sessionId, offset, limit }) =>
  `Read them with log({ offset: ${offset}, limit: ${limit} })${sessionId === undefined ? '' : ` on session ${sessionId}`}`;

/** What was left out, for hosts; line numbers are 1-based like the notice. */
export interface OutputCut {
  /** UTF-8 bytes of the body that the result does not show. */
  omittedBytes: number;
  firstOmittedLine: number;
  lastOmittedLine: number;
  /** Lines that look like errors, kept from the cut middle. */
  keptErrorLines: number;
}

export interface OutputBudgetResult {
  /** header, body (cut if needed), a blank line, status. */
  text: string;
  /** The body as shown. */
  body: string;
  cut: OutputCut | undefined;
}

/**
 * Fits process output into a character budget. When the body is too long, keeps its head and
 * its tail, keeps lines from the cut middle that look like errors (error, exception,
 * traceback, fatal, failed, panic), in order, each while it still fits, and puts a notice where the cut is saying
 * how many bytes were left out and how to page them (`pageHint`; `log({ offset, limit })` by default). The header and
 * the status (exit status line) are always kept whole.
 *
 * @example
 * applyOutputBudget({ body: hugeLog, budget: 30_000, status: 'Process exited with code 1.', sessionId, firstLine: 0 })
 */
export function applyOutputBudget(request: OutputBudgetRequest): OutputBudgetResult {
  const header = request.header ?? '';
  const status = request.status ?? '';
  const body = request.body.endsWith('\n') ? request.body.slice(0, -1) : request.body;
  const room = bodyRoom(request);
  if (body.length <= room) return { text: compose(header, body, status), body, cut: undefined };
  return applyBudgetToBody(stringBody(body), request);
}

/** Room for the body: the budget less header, status and the separators the body adds. */
export function bodyRoom(request: Omit<OutputBudgetRequest, 'body'>): number {
  const fixed = compose(request.header ?? '', 'x', request.status ?? '').length - 1;
  return Math.max(MIN_BODY_CHARS, request.budget - fixed);
}

/** The budget applied to a body longer than its room (held whole or not), trailing newline removed. */
export function applyBudgetToBody(
  body: BodyText,
  request: Omit<OutputBudgetRequest, 'body'>,
): OutputBudgetResult {
  const { text: cutBody, cut } = cutMiddle(
    body,
    bodyRoom(request),
    request.firstLine ?? 0,
    request.sessionId,
    request.pageHint ?? logPageHint,
  );
  return { text: compose(request.header ?? '', cutBody, request.status ?? ''), body: cutBody, cut };
}

/**
 * The last resort for any text over `budget` characters (a header or message that echoed a
 * huge input): its start and end, and in between how much was left out. Never splits a
 * surrogate pair.
 */
export function fitText(text: string, budget: number): string {
  if (text.length <= budget) return text;
  const notice = `\n[... ${fmt(text.length)} characters in all; the middle was left out ...]\n`;
  const room = Math.max(0, budget - notice.length - 8);
  const head = safeCut(text, Math.floor(room * 0.6));
  const tail = safeCut(text, text.length - (room - head), true);
  return `${text.slice(0, head)}${notice}${text.slice(tail)}`;
}

/** Header, body, then a blank line and the status, so the status never reads as output. */
function compose(header: string, body: string, status: string): string {
  const top = [header, body].filter((part) => part !== '').join('\n');
  if (status === '') return top;
  return top === '' ? status : `${top}${body === '' ? '\n' : '\n\n'}${status}`;
}

interface Layout {
  headEnd: number;
  tailStart: number;
}

/** Cuts `body` (longer than `room`) down to at most `room` characters. */
function cutMiddle(
  body: BodyText,
  room: number,
  firstLine: number,
  sessionId: string | undefined,
  pageHint: PageHint,
): { text: string; cut: OutputCut } {
  const avail = Math.max(2, room - NOTICE_RESERVE);
  // Tails carry the verdict (the last error, the summary), so they get the larger share.
  let layout = lay(body, Math.floor(avail * HEAD_SHARE), Math.floor(avail * TAIL_SHARE));
  let errors = new ErrorPick(errorRoom(avail, layout.headEnd), firstLine);
  for (const line of body.errorLines(layout.headEnd, layout.tailStart)) errors.offer(line);
  if (errors.candidates === 0) {
    layout = lay(body, Math.floor(avail * 0.4), avail - Math.floor(avail * 0.4));
    errors = new ErrorPick(0, firstLine);
  }
  const { headEnd, tailStart } = layout;
  const head = body.slice(0, headEnd).replace(/\n$/, '');
  const tail = body.slice(tailStart, body.length);
  const firstOmittedLine = firstLine + body.lineIndexAt(headEnd) + 1;
  const lastOmittedLine = firstLine + body.lineIndexAt(Math.max(headEnd, tailStart - 1)) + 1;
  const omittedBytes = body.byteLength(headEnd, tailStart) - errors.keptBytes;
  // The largest log page that fits a reply like this one, at the cut lines' mean length.
  const meanLine = (tailStart - headEnd) / (lastOmittedLine - firstOmittedLine + 1);
  const pageLines = Math.max(1, Math.floor((room - NOTICE_RESERVE) / Math.max(1, meanLine)));
  // One line longer than a reply holds: a read of that line alone would be cut the same way.
  const hint =
    firstOmittedLine === lastOmittedLine && cutLineChars(body, headEnd, tailStart) > avail
      ? `Line ${fmt(firstOmittedLine)} alone is longer than a reply can show, so no read shows its middle; to look into it, run the command again through a filter (grep -o PATTERN, cut -c START-END, head -c N).`
      : undefined;
  const notice = cutNotice(
    omittedBytes,
    firstOmittedLine,
    lastOmittedLine,
    errors.kept.length,
    hint ??
      pageHint({
        sessionId,
        offset: firstOmittedLine - 1,
        limit: Math.min(pageLines, lastOmittedLine - firstOmittedLine + 1, 100_000),
      }),
  );
  const parts = [head, notice, ...errors.kept];
  if (errors.kept.length > 0) parts.push('[... end of the cut; the output goes on below ...]');
  parts.push(tail);
  return {
    text: parts.filter((part) => part !== '').join('\n'),
    cut: { omittedBytes, firstOmittedLine, lastOmittedLine, keptErrorLines: errors.kept.length },
  };
}

/**
 * The characters of the one line the cut [headEnd, tailStart) falls in (its line end not
 * counted), read from the head and tail kept: the middle of a transcript may be gone.
 */
function cutLineChars(body: BodyText, headEnd: number, tailStart: number): number {
  const start = headEnd === 0 ? 0 : body.lastIndexOf('\n', headEnd - 1) + 1;
  // The cut took the line's end with it: the tail starts on the next line.
  if (tailStart < body.length && body.lineIndexAt(tailStart) !== body.lineIndexAt(headEnd)) {
    return tailStart - 1 - start;
  }
  const end = body.indexOf('\n', tailStart);
  return (end < 0 ? body.length : end) - start;
}

/** Head up to a line end within `headChars`, tail from a line start within `tailChars`. */
function lay(body: BodyText, headChars: number, tailChars: number): Layout {
  const headEnd = headEndAt(body, headChars);
  const tailFrom = Math.max(headEnd, body.length - tailChars);
  let tailStart = body.indexOf('\n', tailFrom - 1) + 1;
  if (tailStart === 0 || tailStart >= body.length) tailStart = safeCut(body, tailFrom, true);
  if (tailStart < headEnd) tailStart = headEnd;
  return { headEnd, tailStart };
}

function cutNotice(bytes: number, first: number, last: number, errors: number, hint: string): string {
  const lines = first === last ? `line ${fmt(first)}` : `lines ${fmt(first)}-${fmt(last)}`;
  const kept =
    errors === 0
      ? ''
      : errors === 1
        ? ' 1 line from it that looks like an error follows.'
        : ` ${errors} lines from it that look like errors follow.`;
  return `[... ${fmt(bytes)} bytes left out here (${lines}).${kept} ${hint} ...]`;
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}
