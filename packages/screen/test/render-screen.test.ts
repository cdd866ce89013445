// renderScreen(): the screen alone, as a person sees it; the scrollback above it is left out,
// and so is the normal screen while a full-screen program shows its own.
import { describe, expect, it } from 'vitest';
import { TerminalScreen } from '../src/index.js';

const lines = (n: number) => Array.from({ length: n }, (_, i) => `l${i + 1}`).join('\r\n');

describe('renderScreen()', () => {
  it('is the visible rows: the normal screen without its scrollback, then the alternate screen alone', async () => {
    const screen = new TerminalScreen({ cols: 20, rows: 4 });
    screen.feed(lines(10));
    expect(await screen.renderScreen()).toBe('l7\nl8\nl9\nl10');
    expect(await screen.renderFull()).toBe(lines(10).replaceAll('\r\n', '\n'));
    screen.feed('\x1b[?1049h\x1b[H\x1b[2JVIM\r\n~');
    expect(await screen.renderScreen()).toBe('VIM\n~');
    screen.feed('\x1b[?1049l');
    expect(await screen.renderScreen()).toBe('l7\nl8\nl9\nl10');
    screen.dispose();
  });

  it('starts with what is visible of a line whose start scrolled above, and keeps blank rows above text', async () => {
    const screen = new TerminalScreen({ cols: 5, rows: 3 });
    screen.feed('aaaaabbbbbcccccddddd');
    expect(await screen.renderScreen()).toBe('bbbbbcccccddddd');
    const blank = new TerminalScreen({ cols: 20, rows: 4 });
    blank.feed('\x1b[?1049h\x1b[4;1Hbottom');
    expect(await blank.renderScreen()).toBe('\n\n\nbottom');
    screen.dispose();
    blank.dispose();
  });

  it("retire() keeps it for the ended session: the last screenful, or the full-screen program's", async () => {
    const normal = new TerminalScreen({ cols: 20, rows: 4 });
    normal.feed(lines(10));
    expect((await normal.retire()).screen).toBe('l7\nl8\nl9\nl10');
    const alternate = new TerminalScreen({ cols: 20, rows: 4 });
    alternate.feed(`${lines(10)}\r\n\x1b[?1049h\x1b[H\x1b[2JVIM`);
    const final = await alternate.retire();
    expect(final.screen).toBe('VIM');
    expect(final.full).toContain('l1\n');
  });
});
