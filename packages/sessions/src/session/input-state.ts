// Whether the program waits for input: the facts a check reads, and what a change tells
// (an event, watchers, and an early return of a parked poll).

import type { ProbeFacts } from '../input-wait/detector.js';
import { promptLine } from '../input-wait/heuristic.js';
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

export async function inputFacts(s: SessionCore): Promise<Omit<ProbeFacts, 'quietMs'> | undefined> {
  if (!s.live || !s.run) return undefined;
  const kind = s.stdioMode === 'pty' ? 'pty' : 'pipe';
  if (kind === 'pipe' && (s.stdinClosed || !s.run.stdin)) return undefined;
  // Only a native process's pid names a local process the kernel can describe.
  const rootPid = s.backend === 'native' ? s.pid : undefined;
  return { rootPid, kind, ...(await promptOf(s)) };
}

// On a terminal, the line the cursor is on as the screen shows it, once it parsed what came:
// the raw tail stripped of its escapes reads as no line at all once a program addresses the
// cursor (vim's came out as 120 blanks and a `~`). The prompt quoted is the line up to the
// cursor: the whole line quoted vim's first line of text and top's last process row. On the
// alternate screen nothing is quoted: the row is the program's text ("hello worl" from vim
// after Escape), and a model took it for what the program asked.
async function promptOf(s: SessionCore): Promise<Pick<ProbeFacts, 'prompt' | 'line' | 'fullScreen'>> {
  const screen = s.emulated ? s.screen : undefined;
  if (screen === undefined) return { prompt: promptFromTail(s.transcript.log.tail) };
  await screen.flush().catch(() => {});
  // Disposed meanwhile (the session ended and retired its screen): the log still has the tail.
  if (s.screen !== screen) return { prompt: promptFromTail(s.transcript.log.tail) };
  const line = promptLine(screen.cursorLine());
  if (screen.modes.alternateScreen) return { prompt: '', line, fullScreen: true };
  return screen.cursorPrompt ? { prompt: promptLine(screen.cursorPrompt()), line } : { prompt: line };
}

export function inputChanged(s: SessionCore, state: InputWait | null, previous: InputWait | null): void {
  s.watchers.emit({ type: 'input', input: state });
  if (state === null || previous !== null) return;
  s.ctx.emit(sessionEvent(s, 'process_waiting_input', { at: state.since, input: state }));
  // poll() returns early when the program starts waiting.
  s.waiters.wake();
}
