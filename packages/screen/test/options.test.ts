import { invalidOptionMessage } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { TerminalScreen } from '../src/index.js';

const invalidOption = invalidOptionMessage;

describe('TerminalScreen options', () => {
  it('defaults to 120x30 with 5,000 lines of scrollback', async () => {
    const screen = new TerminalScreen();
    screen.feed('x'.repeat(121));
    await screen.flush();
    // The 121st character wrapped onto the second row.
    expect(screen.cursor).toEqual({ row: 2, col: 2 });
    screen.feed('\r\n'.repeat(40));
    let text = '';
    for (let i = 0; i < 5_100; i++) text += `${i}\r\n`;
    screen.feed(text);
    const lines = (await screen.renderFull()).split('\n');
    // 5,000 scrollback + 30 rows, the last of them the empty cursor row.
    expect(lines).toHaveLength(5_029);
    expect(lines.at(-1)).toBe('5099');
    screen.dispose();
  });

  it('takes cols, rows and scrollback', async () => {
    const screen = new TerminalScreen({ cols: 10, rows: 3, scrollback: 2 });
    screen.feed('1\r\n2\r\n3\r\n4\r\n5\r\n6');
    expect(await screen.renderFull()).toBe('2\n3\n4\n5\n6');
    screen.feed('\r\n0123456789abc');
    await screen.flush();
    expect(screen.cursor).toEqual({ row: 3, col: 4 });
    screen.dispose();
  });

  it.each([
    [{ cols: 1 }, 'cols must be an integer from 2 to 500 (got 1)'],
    [{ cols: 501 }, 'cols must be an integer from 2 to 500 (got 501)'],
    [{ cols: 80.5 }, 'cols must be an integer from 2 to 500 (got 80.5)'],
    [{ rows: 0 }, 'rows must be an integer from 1 to 200 (got 0)'],
    [{ rows: '24' }, 'rows must be an integer from 1 to 200 (got "24")'],
    [{ scrollback: 0 }, 'scrollback must be an integer from 1 to 100000 (got 0)'],
    [{ scrollback: Number.NaN }, 'scrollback must be an integer from 1 to 100000 (got NaN)'],
    [{ scrollback: 100_001 }, 'scrollback must be an integer from 1 to 100000 (got 100001)'],
  ])('refuses %o with ERR_INVALID_OPTION', (options, message) => {
    expect(invalidOption(() => new TerminalScreen(options as never))).toBe(message);
  });

  it('refuses options that are not an object', () => {
    expect(invalidOption(() => new TerminalScreen(null as never))).toBe(
      'options must be an object (got null)',
    );
    expect(invalidOption(() => new TerminalScreen(120 as never))).toBe('options must be an object (got 120)');
  });

  it('validates resize() like the constructor and keeps the size on refusal', async () => {
    const screen = new TerminalScreen({ cols: 10, rows: 3 });
    expect(invalidOption(() => screen.resize(0, 3))).toBe('cols must be an integer from 2 to 500 (got 0)');
    expect(invalidOption(() => screen.resize(10, 201))).toBe(
      'rows must be an integer from 1 to 200 (got 201)',
    );
    screen.feed('0123456789x');
    await screen.flush();
    expect(screen.cursor).toEqual({ row: 2, col: 2 });
    screen.dispose();
  });

  it('refuses a chunk that is not a string and a reply listener that is not a function', () => {
    const screen = new TerminalScreen();
    expect(invalidOption(() => screen.feed(Buffer.from('x') as never))).toBe(
      'chunk must be a string (what feed() takes) (got a object)',
    );
    expect(invalidOption(() => screen.onReply('x' as never))).toBe(
      'cb must be a function (what onReply() takes) (got "x")',
    );
    screen.dispose();
  });
});
