// renderNew() across the alternate screen, where the render anchor cannot be a marker (xterm.js
// places markers only on the normal buffer) and a reset replaces the buffers: a mutation run
// showed no test moving the anchor across either.
import { describe, expect, it } from 'vitest';
import { TerminalScreen } from '../src/index.js';

const lines = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `l${from + i}\r\n`).join('');

/**
 * A 20×5 screen that rendered l1–l10, then got l11–l20 and went to the alternate screen
 * showing ALT, rendered too (the first test below checks what those renders return).
 */
async function onTheAlternateScreen(): Promise<TerminalScreen> {
  const screen = new TerminalScreen({ cols: 20, rows: 5 });
  screen.feed(lines(1, 10));
  await screen.renderNew();
  screen.feed(lines(11, 20));
  screen.feed('\x1b[?1049hALT');
  await screen.renderNew();
  return screen;
}

describe('renderNew across the alternate screen', () => {
  it('neither repeats the scrollback it returned there nor loses the normal lines it covered', async () => {
    const screen = new TerminalScreen({ cols: 20, rows: 5 });
    try {
      screen.feed(lines(1, 10));
      expect(await screen.renderNew()).toBe('l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10');
      // On the alternate screen: the normal scrollback so far, then what the program shows.
      screen.feed(lines(11, 20));
      screen.feed('\x1b[?1049hALT');
      expect(await screen.renderNew()).toBe('\nl11\nl12\nl13\nl14\nl15\nl16\n\n\n\n\nALT');
      screen.feed('!');
      expect(await screen.renderNew()).toBe('!');
      // Back on the normal screen: the rows the alternate screen covered, then what is new.
      screen.feed('\x1b[?1049l');
      screen.feed(lines(21, 22));
      expect(await screen.renderNew()).toBe('\nl17\nl18\nl19\nl20\nl21\nl22');
      screen.feed(lines(23, 24));
      expect(await screen.renderNew()).toBe('\nl23\nl24');
    } finally {
      screen.dispose();
    }
  });

  it('after a reset on the alternate screen, everything on the new normal buffer is new, once', async () => {
    const screen = await onTheAlternateScreen();
    try {
      screen.feed('\x1bc'); // RIS: both buffers replaced, the normal one active and empty
      screen.feed(lines(30, 31));
      expect(await screen.renderNew()).toBe('\nl30\nl31');
      screen.feed(lines(32, 40));
      expect(await screen.renderNew()).toBe('\nl32\nl33\nl34\nl35\nl36\nl37\nl38\nl39\nl40');
    } finally {
      screen.dispose();
    }
  });

  it('keeps its place when the terminal is resized right after the alternate screen closes', async () => {
    const screen = await onTheAlternateScreen();
    try {
      screen.feed('\x1b[?1049l');
      await screen.flush();
      screen.resize(20, 6);
      screen.feed(lines(21, 22));
      // Not l7-l16 again: the place was fixed as a marker when the normal buffer came back.
      expect(await screen.renderNew()).toBe('\nl17\nl18\nl19\nl20\nl21\nl22');
    } finally {
      screen.dispose();
    }
  });

  it('loses no line when resized while the alternate screen is up (it may repeat some)', async () => {
    // 16-character lines wrap at 10 columns and unwrap at 20: the rows past the anchor no
    // longer count the same lines, so it re-reads from the anchor rather than guess.
    const long = (from: number, to: number) =>
      Array.from(
        { length: to - from + 1 },
        (_, i) => `line-${String(from + i).padStart(2, '0')}-abcdefgh\r\n`,
      ).join('');
    const screen = new TerminalScreen({ cols: 10, rows: 5 });
    try {
      screen.feed(long(1, 5));
      await screen.renderNew();
      screen.feed(long(6, 10));
      screen.feed('\x1b[?1049hALT');
      await screen.renderNew();
      screen.resize(20, 5);
      screen.feed('\x1b[?1049l');
      screen.feed(long(11, 12));
      const after = (await screen.renderNew()).split('\n').filter((line) => line !== '');
      expect(after.slice(-4)).toEqual(['09', '10', '11', '12'].map((n) => `line-${n}-abcdefgh`));
    } finally {
      screen.dispose();
    }
  });

  it('re-reads from the right row when its place scrolled out of the scrollback before the alternate screen', async () => {
    const screen = new TerminalScreen({ cols: 20, rows: 3, scrollback: 5 });
    try {
      screen.feed(lines(1, 3));
      expect(await screen.renderNew()).toBe('l1\nl2\nl3');
      // l1-l13 go out of the 5-line scrollback, and the place of the next render with them (the
      // alternate screen starts on the cursor's row, the bottom one).
      screen.feed(lines(4, 20));
      screen.feed('\x1b[?1049hALT');
      expect(await screen.renderNew()).toBe('\nl14\nl15\nl16\nl17\nl18\n\n\nALT');
      screen.feed('\x1b[?1049l');
      screen.feed(lines(21, 21));
      // The rows the alternate screen covered, then l21: not the scrollback again.
      expect(await screen.renderNew()).toBe('\nl19\nl20\nl21');
    } finally {
      screen.dispose();
    }
  });

  it('after a reset on the alternate screen, loses nothing when the previous render started at the top', async () => {
    // A line of 95 characters on 10 columns: its first two rows go out of the scrollback, and the
    // render after that starts at row 0, the middle of the line.
    const screen = new TerminalScreen({ cols: 10, rows: 3, scrollback: 5 });
    try {
      screen.feed('x'.repeat(95));
      expect(await screen.renderNew()).toBe('x'.repeat(75));
      screen.feed('\x1b[?1049hALT');
      await screen.renderNew();
      screen.feed('\x1bc');
      screen.feed(lines(30, 34));
      expect(await screen.renderNew()).toBe('\nl30\nl31\nl32\nl33\nl34');
    } finally {
      screen.dispose();
    }
  });
});
