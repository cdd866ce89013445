// Leaving the alternate screen (vim, less, man, a pager) brings the normal screen back as it
// was: the next read returns what changed on it since the reader last saw it, not the whole
// screen again.
import { describe, expect, it } from 'vitest';
import { TerminalScreen } from '../src/index.js';

const ENTER = '\x1b[?1049h\x1b[H\x1b[2J';
const LEAVE = '\x1b[2J\x1b[?1049l';

async function read(screen: TerminalScreen): Promise<string> {
  return screen.renderNew();
}

describe('renderNew() when the alternate screen closes', () => {
  it('returns the command line and the new prompt, not the screen before them (the Enter scrolled)', async () => {
    const screen = new TerminalScreen({ cols: 20, rows: 5 });
    screen.feed('a\r\nb\r\nc\r\nd\r\n$ ');
    expect(await read(screen)).toBe('a\nb\nc\nd\n$');
    screen.feed(`vim f\r\n${ENTER}VIM`);
    expect(await read(screen)).toBe('\nVIM');
    screen.feed(`${LEAVE}$ `);
    expect(await read(screen)).toBe('\n$ vim f\n$');
    screen.dispose();
  });

  it('the same where nothing scrolled (a pager opened on a screen with room)', async () => {
    const screen = new TerminalScreen({ cols: 40, rows: 10 });
    screen.feed('psql banner\r\nType help\r\n\r\nprocmux=# ');
    await read(screen);
    screen.feed(`select 1;\r\n${ENTER} n\r\n 1\r\n:`);
    expect(await read(screen)).toBe('\n n\n 1\n:');
    screen.feed(`\r\x1b[K${LEAVE}procmux=# `);
    expect(await read(screen)).toBe('\nprocmux=# select 1;\nprocmux=#');
    screen.dispose();
  });

  it('lines that came after the last read return once: those that scrolled above with the alternate screen, the rest after it', async () => {
    const screen = new TerminalScreen({ cols: 20, rows: 5 });
    screen.feed('a\r\nb\r\nc\r\nd\r\n$ ');
    await read(screen);
    screen.feed(`cmd\r\nout1\r\nout2\r\nout3\r\nout4\r\nout5\r\n${ENTER}ALT`);
    // a to d scrolled above unchanged: nothing of them; the prompt line grew, out1 is new.
    expect(await read(screen)).toBe(' cmd\nout1\nALT');
    screen.feed(`${LEAVE}$ `);
    expect(await read(screen)).toBe('\nout2\nout3\nout4\nout5\n$');
    screen.dispose();
  });

  it('a screen erased before the alternate one, or a reset on it, still loses nothing and repeats nothing', async () => {
    const erased = new TerminalScreen({ cols: 20, rows: 5 });
    erased.feed('a\r\nb\r\n$ ');
    await read(erased);
    erased.feed(`\x1b[H\x1b[2J$ vim f\r\n${ENTER}VIM`);
    expect(await read(erased)).toBe('\nVIM');
    erased.feed(`${LEAVE}$ `);
    expect(await read(erased)).toBe('\n$ vim f\n$');
    erased.dispose();

    const reset = new TerminalScreen({ cols: 20, rows: 5 });
    reset.feed('a\r\nb\r\n$ ');
    await read(reset);
    reset.feed(`vim\r\n${ENTER}VIM`);
    await read(reset);
    reset.feed('\x1bcfresh');
    expect(await read(reset)).toBe('\nfresh');
    reset.dispose();
  });
});
