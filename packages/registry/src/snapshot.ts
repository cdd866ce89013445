import { TAIL_CHARS } from '@procmux/core-types';
import { finishedStatus, type SessionExit } from './status.js';
import type { FinishedSession, RunningSession } from './types.js';
import { lastCharacters } from './utf8.js';

/**
 * The plain-data record of a session that ended: what can still be asked about it. Copies
 * only values, so the running session's log, screen and undrained output can be released.
 */
export function finishedSnapshot<M>(
  session: RunningSession<M>,
  exit: SessionExit,
  endedAt: number,
  history: string,
): FinishedSession<M> {
  return Object.freeze({
    status: finishedStatus(exit),
    id: session.id,
    command: session.command,
    args: session.args,
    cwd: session.cwd,
    startedAt: session.startedAt,
    endedAt,
    backgrounded: session.backgrounded,
    exitCode: exit.exitCode,
    signal: exit.signal,
    reason: exit.reason,
    history,
    tail: lastCharacters(history, TAIL_CHARS),
    truncated: session.log.truncated,
    totalBytes: session.log.totalBytes,
    meta: session.meta,
  });
}
