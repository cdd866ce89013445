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
  session: Pick<ToolSession, 'screen'> & Partial<Pick<ToolSession, 'emulated'>>,
  output: OutputGatherer,
  last: PollResult,
): Promise<string> {
  if (last.fullScreen !== true || output.stdoutPieces < 2 || session.screen === undefined)
    return gatheredText(session, output);
  // The screen alone: the normal screen's scrollback above it was returned before (up to 5,000
  // lines of it came back with every such reply).
  const screen = await session.screen({ scrollback: false }).catch(() => undefined);
  return screen === undefined ? gatheredText(session, output) : screen;
}

/**
 * What was gathered. A terminal's text after an earlier reply starts with the line break that
 * ended the last row that reply showed (the screen's deltas join that way); a reply of its own
 * starts at the next row instead (the REPL's `\n> [1,2,3]` read as a blank line first). Blank
 * rows after it stay.
 */
function gatheredText(session: Partial<Pick<ToolSession, 'emulated'>>, output: OutputGatherer): string {
  const text = output.text();
  return session.emulated === true && text.startsWith('\n') ? text.slice(1) : text;
}
