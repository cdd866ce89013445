// A full-screen program (vim, less, htop) redraws parts of its screen in place, and a poll
// returns the rows it redrew. One reply gathered from several polls appended each poll's rows
// after the last, which read as no screen at all: vim's start came back as 31 rows of `~`,
// six blank ones and its status line, then 6 more `~` and the status line again (poll deltas
// taken in the middle of its first draw). Such a reply shows the screen as it is now.
import type { PollResult } from '@procmux/sessions';
import type { OutputGatherer } from './gather.js';
import type { ToolSession } from './types.js';

/** The reply's body: the screen now after several redraws of a full-screen program, else what was gathered. */
export async function gatheredBody(
  session: Pick<ToolSession, 'screen'>,
  output: OutputGatherer,
  last: PollResult,
): Promise<string> {
  if (last.fullScreen !== true || output.stdoutPieces < 2 || session.screen === undefined)
    return output.text();
  const screen = await session.screen().catch(() => undefined);
  return screen === undefined ? output.text() : screen;
}
