// The end of a PTY flood: the screen retires by working its last rows out from the held text
// (TerminalScreen.retire) instead of parsing it. What a caller reads after the end must be what
// an emulator that parsed every byte shows: the poll's delta, and screen() on every read.
import { TerminalScreen } from '@procmux/screen';
import { disposeAfterEach, makeWorkspace } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { createProcessSessions, type ProcessSession, type ProcessSessions } from '../src/index.js';

const workspace = makeWorkspace();
const track = disposeAfterEach<ProcessSessions>();

/** Every byte the session logged, fed to a screen that parses each line as it comes. */
async function parsedEverything(s: ProcessSession): Promise<{ delta: string; full: string }> {
  const screen = new TerminalScreen({ cols: 120, rows: 40 });
  try {
    let cursor = 0;
    for (;;) {
      const page = await s.output({ cursor });
      for (const line of page.data.split(/(?<=\n)/)) {
        screen.feed(line);
        void screen.cursor;
      }
      cursor = page.cursor;
      if (page.eof) break;
    }
    const delta = await screen.renderNew();
    return { delta, full: await screen.renderFull() };
  } finally {
    screen.dispose();
  }
}

describe('the screen of a PTY session that ended in a flood', () => {
  it('reads as a screen that parsed every byte: the final poll, and screen() before and after dispose', async () => {
    const sessions = track(createProcessSessions({ cwd: workspace }));
    // 12,000 lines longer than the 120 columns (each wraps once), a short one rewritten after a
    // CR, and a last line without a line feed: past twice what the scrollback and screen hold.
    const s = await sessions.start({
      command: 'awk',
      args: [
        'BEGIN { for (i = 0; i < 12000; i++) printf "%0130d line %d\\n", 0, i; printf "old\\rnew\\nlast" }',
      ],
      pty: true,
    });
    await s.wait({ timeoutMs: 60_000 });
    const reference = await parsedEverything(s);
    // The scrollback is full (5,000 rows above 40) and ends as the program's output did.
    expect(reference.full.split('\n').length).toBeGreaterThan(2_500);
    expect(reference.full.endsWith('000 line 11999\nnew\nlast')).toBe(true);
    expect((await s.poll()).stdout).toBe(reference.delta);
    expect((await s.poll()).stdout).toBe('');
    expect(s.holdsScreen).toBe(false);
    expect(await s.screen()).toBe(reference.full);
    expect(await s.screen()).toBe(reference.full);
    await sessions.dispose();
    expect(await s.screen()).toBe(reference.full);
  });
});
