import { type ActionContext, sessionReply, tailStartLine } from './action-context.js';
import { duration, shownCommand } from './describe-session.js';
import { gatheredBody } from './full-screen-body.js';
import { gather } from './gather.js';
import { MAX_WAIT_MS } from './options.js';
import { endShown, summarize } from './results.js';
import { expectedEcho } from './typed-echo.js';
import type { SessionSummary, ToolResult } from './types.js';

/** Lines of an ended session shown again when a poll finds nothing new and its end is news. */
const LAST_LINES = 10;

/** A burst (a result, then the prompt after it) comes back in one poll. */
const POLL_SETTLE = { quietMs: 100, maxMs: 1_000 };

/** list: the caller's sessions, newest last. */
export async function listAction(ctx: ActionContext): Promise<ToolResult> {
  const sessions = ctx.sessions.list(ctx.owner).map(summarize);
  const text =
    sessions.length === 0
      ? 'No sessions. Start one with exec (mode session or daemon).'
      : [`${sessions.length} session${sessions.length === 1 ? '' : 's'}:`, ...sessions.map(row)].join('\n');
  return { text, isError: false, data: { tool: 'process', action: 'list', sessions } };
}

function row(s: SessionSummary): string {
  const state =
    s.state === 'exited'
      ? `exited ${s.exitCode}`
      : s.state === 'killed' && s.signal
        ? `killed ${s.signal}`
        : s.state;
  const age =
    s.endedAt === null
      ? `up ${duration(Date.now() - s.startedAt)}`
      : `ran ${duration(s.endedAt - s.startedAt)}`;
  const pid = s.pid === undefined ? 'no pid' : `pid ${s.pid}`;
  const io =
    s.stdioMode === 'pty' ? 'terminal' : s.ptyFellBack ? 'pipes (no terminal could be opened)' : 'pipes';
  return `- ${s.id}  ${state}  ${pid}  ${io}  ${age}  ${shownCommand(s.command)}`;
}

/** poll: new output, waiting up to `timeout` (clamped to 0-120000 ms, and the text says so). */
export async function pollAction(ctx: ActionContext): Promise<ToolResult> {
  const requested = ctx.values.timeout ?? 0;
  const used = Math.round(Math.min(MAX_WAIT_MS, Math.max(0, requested)));
  const session = ctx.session();
  const got = await gather(session, { waitMs: used, settle: POLL_SETTLE, signal: ctx.signal });
  expectedEcho(session)?.consume(got.output.searched);
  const body = await gatheredBody(session, got.output, got.last);
  // The model read every line but never heard of the end: say so once, with the last lines
  // for context, marked as delivered before so nothing is counted twice.
  if (body === '' && session.metadata().endedAt !== null && !endShown(session)) {
    const last = await session.log({ limit: LAST_LINES });
    if (last.lines > 0) {
      return sessionReply(ctx, session, {
        body:
          `(no new output: the process has ended. Its last ${last.lines} line${last.lines === 1 ? '' : 's'}, ` +
          `already delivered by an earlier call, not new:)\n${last.text}`,
        notes: [droppedNote(got.output.droppedBytes + got.output.trimmedBytes)],
        data: {
          timeout: { requested, used },
          droppedBytes: got.output.droppedBytes,
          alreadyDelivered: { offset: last.offset, count: last.lines },
        },
      });
    }
  }
  const notes = [
    requested >= 0 && requested <= MAX_WAIT_MS
      ? undefined
      : `(timeout ${requested} ms is outside 0-${MAX_WAIT_MS} ms, so it was clamped: waited up to ${used} ms.)`,
    droppedNote(got.output.droppedBytes + got.output.trimmedBytes),
    got.end === 'aborted' ? 'Cancelled while waiting.' : undefined,
  ];
  return sessionReply(ctx, session, {
    body: body === '' ? '(no new output)' : body,
    notes,
    firstLine: tailStartLine(session, body),
    data: { timeout: { requested, used }, droppedBytes: got.output.droppedBytes },
  });
}

/** The note for output the session could not keep between two reads. */
export function droppedNote(bytes: number): string | undefined {
  if (bytes === 0) return undefined;
  return (
    `(${bytes.toLocaleString('en-US')} bytes of output arrived faster than they were read and are not shown; ` +
    'process action=log has the full history.)'
  );
}
