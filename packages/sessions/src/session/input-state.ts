// Whether the program waits for input: the facts a check reads, and what a change tells
// (an event, watchers, and an early return of a parked poll).
import type { InputWait } from '../input-wait/input-watch.js';
import { promptFromTail } from '../input-wait/session-input.js';
import type { SessionCore } from './core.js';
import { sessionEvent } from './events.js';

/** Checked now (metadata().input is the latest answer, refreshed while someone asks). */
export async function checkInput(s: SessionCore): Promise<InputWait | null> {
  if (!s.live) return null;
  return s.input.check();
}

/** metadata()'s answer: asking turns the background checks on for a while. */
export function askInput(s: SessionCore): InputWait | null {
  if (s.live) s.input.ask();
  return s.input.state;
}

export function inputFacts(
  s: SessionCore,
): { rootPid: number | undefined; kind: 'pty' | 'pipe'; prompt: string } | undefined {
  if (!s.live || !s.run) return undefined;
  const kind = s.stdioMode === 'pty' ? 'pty' : 'pipe';
  if (kind === 'pipe' && (s.stdinClosed || !s.run.stdin)) return undefined;
  // Only a native process's pid names a local process the kernel can describe.
  const rootPid = s.backend === 'native' ? s.pid : undefined;
  return { rootPid, kind, prompt: promptFromTail(s.transcript.log.tail) };
}

export function inputChanged(s: SessionCore, state: InputWait | null, previous: InputWait | null): void {
  s.watchers.emit({ type: 'input', input: state });
  if (state === null || previous !== null) return;
  s.ctx.emit(sessionEvent(s, 'process_waiting_input', { at: state.since, input: state }));
  // poll() returns early when the program starts waiting.
  s.waiters.wake();
}
