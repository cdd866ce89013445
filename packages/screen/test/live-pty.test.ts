// A live program in a real PTY: its output feeds the screen, and the screen's answers to its
// terminal queries are written back to it.
import { withTreeMarker } from '@procmux/core-types';
import { checkLeaksAfterAll, trackPid, waitFor } from '@procmux/test-utils';
import { spawn } from 'node-pty';
import { expect, it } from 'vitest';
import { TerminalScreen } from '../src/index.js';

checkLeaksAfterAll();

it('answers a program that asks where the cursor is, with the position the program sees', async () => {
  const script = [
    'stty -icanon -echo',
    "printf 'first\\r\\nsecond'",
    // Ask for the cursor position (ESC[6n) and read the answer, ESC[row;colR, from the terminal.
    "printf '\\033[6n'",
    "IFS='[;' read -r -d R _ row col",
    'printf \'\\r\\nthe cursor was at row %s, column %s\\r\\n\' "$row" "$col"',
    "printf 'bye\\r\\n'",
    'sleep 5',
  ].join('; ');
  const child = spawn('bash', ['--norc', '--noprofile', '-c', script], {
    name: 'xterm-256color',
    cols: 80,
    rows: 24,
    // The tree marker lets the leak check find anything of this test that outlives it.
    env: withTreeMarker({ PATH: process.env.PATH, TERM: 'xterm-256color', LANG: 'C.UTF-8' }),
  });
  trackPid(child.pid);
  const screen = new TerminalScreen({ cols: 80, rows: 24 });
  screen.onReply((data) => child.write(data));
  child.onData((data) => screen.feed(data));
  try {
    await waitFor(async () => (await screen.renderFull()).includes('bye'), 20_000, 'the program to finish');
    expect(await screen.renderFull()).toBe('first\nsecond\nthe cursor was at row 2, column 7\nbye');
  } finally {
    // The program leads its own process group (node-pty starts a session): end all of it.
    process.kill(-child.pid, 'SIGKILL');
    screen.dispose();
  }
});
