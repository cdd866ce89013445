// A full-screen program (vim, less, top) redraws its screen in place: what a person sees is the
// screen as it is now, whichever reply showed it first. wait_for asks it once at the start, so
// waiting for vim's `"notes.txt" [New]` that exec's reply already showed returns at once
// instead of at the timeout (it sits on the bottom row; the cursor is on the text).
import type { Found } from './gather.js';
import type { TextPattern } from './pattern.js';
import type { ToolSession } from './types.js';

/** What `pattern` matches on the screen now, as already shown; undefined without a match or a screen. */
export async function screenMatch(
  session: Pick<ToolSession, 'screen'>,
  pattern: TextPattern,
): Promise<Found | undefined> {
  if (session.screen === undefined) return undefined;
  const screen = await session.screen().catch(() => undefined);
  if (screen === undefined) return undefined;
  const text = pattern.find(screen);
  return text === undefined ? undefined : { text, shown: true, onScreen: true };
}
