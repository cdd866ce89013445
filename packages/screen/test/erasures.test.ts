// A screen erased whole and written afresh (a test watcher's rerun, `clear`, `console.clear()`,
// a reset) comes back whole in the next read: no line equal to one the last read returned is
// left out, and the scrollback above is not returned again.
import { propertyRuns } from '@procmux/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TerminalScreen } from '../src/index.js';

const ESC = '\x1b';
/** How programs erase the screen, each leaving the cursor at the top left. */
const CLEARS = {
  'tput clear': `${ESC}[H${ESC}[2J`,
  'jest rerun': `${ESC}[2J${ESC}[3J${ESC}[H`,
  'bash clear': `${ESC}[H${ESC}[2J${ESC}[3J`,
  'console.clear()': `${ESC}[1;1H${ESC}[0J`,
  reset: `${ESC}c`,
} as const;
type ClearName = keyof typeof CLEARS;
const NAMES = Object.keys(CLEARS) as ClearName[];

async function read(screen: TerminalScreen): Promise<string> {
  return (await screen.renderChanges()).text;
}

describe('renderChanges() after the screen was erased whole', () => {
  it.each(NAMES)("a rerun's lines equal to the last run's come back (%s)", async (name) => {
    for (const before of [0, 40]) {
      const screen = new TerminalScreen({ cols: 40, rows: 10 });
      for (let i = 0; i < before; i++) screen.feed(`old ${i}\r\n`);
      screen.feed(`${CLEARS[name]}RUN v1\r\nPASS a\r\nFAIL b\r\n`);
      await read(screen);
      screen.feed(`${CLEARS[name]}RUN v1\r\nPASS a\r\nPASS b\r\n`);
      expect(await read(screen), `${name} after ${before} lines`).toBe('\nRUN v1\nPASS a\nPASS b');
      screen.dispose();
    }
  });

  it('returns the lines that scrolled by since the last read once, then the screen written afresh', async () => {
    const screen = new TerminalScreen({ cols: 40, rows: 5 });
    for (let i = 0; i < 12; i++) screen.feed(`row ${i}\r\n`);
    await read(screen);
    // 12..15 scroll above the screen; 16..19 are on it when it is erased, never read: gone, as
    // the terminal shows.
    for (let i = 12; i < 20; i++) screen.feed(`row ${i}\r\n`);
    screen.feed(`${CLEARS['tput clear']}row 8\r\nnew`);
    expect(await read(screen)).toBe('\nrow 12\nrow 13\nrow 14\nrow 15\nrow 8\nnew');
    screen.dispose();
  });

  it('what is left above the erased screen of a line returned before does not come back', async () => {
    const screen = new TerminalScreen({ cols: 10, rows: 4 });
    screen.feed('r0\r\nr1\r\n0123456789abcdefghij\r\nr3');
    expect(await read(screen)).toBe('r0\nr1\n0123456789abcdefghij\nr3');
    // Two rows scroll: the long line's first row goes above the screen, its second stays on it.
    screen.feed(`\r\n\r\n${CLEARS['tput clear']}fresh`);
    expect(await read(screen)).toBe('\nfresh');
    screen.dispose();
  });

  it('an erase below the cursor elsewhere, or an erase of the alternate screen, is no clear', async () => {
    const screen = new TerminalScreen({ cols: 20, rows: 6 });
    screen.feed('a\r\nb\r\nc');
    await read(screen);
    // Cursor up two lines, erase below: b and c are gone, and x is drawn over them.
    screen.feed(`\r${ESC}[1A${ESC}[0Jx`);
    expect(await screen.renderChanges()).toEqual({ text: '\nx', redrawn: 2 });
    screen.feed(`${ESC}[?1049h${ESC}[2Jvim${ESC}[?1049l`);
    expect(await read(screen)).toBe('');
    screen.dispose();
  });

  it('read between writes, every line comes back once, in order, whatever the erases between reads', async () => {
    const line = fc.oneof(
      fc.constantFrom('RUN v1', 'PASS a', 'PASS b', 'FAIL c', 'x'),
      fc.string({ unit: fc.constantFrom('a', 'b', ' '), minLength: 1, maxLength: 30 }).map((s) => `${s}.`),
    );
    const step = fc.record({
      clear: fc.option(fc.constantFrom(...NAMES), { nil: undefined }),
      lines: fc.array(line, { maxLength: 14 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
        const screen = new TerminalScreen({ cols: 12, rows: 6 });
        const written: string[] = [];
        let joined = '';
        for (const { clear, lines } of steps) {
          if (clear) screen.feed(CLEARS[clear]);
          for (const text of lines) screen.feed(`${text}\r\n`);
          written.push(...lines);
          joined += await read(screen);
        }
        expect(joined).toBe(written.join('\n'));
        screen.dispose();
      }),
      { numRuns: propertyRuns(200) },
    );
  });
});
