import { describe, expect, it } from 'vitest';
import { TerminalScreen } from '../src/index.js';

describe('TerminalScreen.serialize', () => {
  it('rebuilds the same text, colours and cursor on a fresh terminal of the same size', async () => {
    const source = new TerminalScreen({ cols: 40, rows: 5 });
    source.feed('\x1b[31mred\x1b[0m plain\r\n');
    for (let i = 0; i < 12; i++) source.feed(`line ${i}\r\n`);
    source.feed('>>> pri');
    const copy = new TerminalScreen({ cols: 40, rows: 5 });
    const serialized = await source.serialize();
    expect(serialized).toContain('\x1b[31m');
    copy.feed(serialized);
    expect(await copy.renderFull()).toBe(await source.renderFull());
    await copy.flush();
    expect(copy.cursor).toEqual(source.cursor);
    source.dispose();
    copy.dispose();
  });

  it('includes output fed while an earlier parse was still running', async () => {
    const screen = new TerminalScreen({ cols: 20, rows: 3 });
    screen.feed('a'.repeat(200_000));
    const pending = screen.serialize();
    screen.feed('\r\nlast');
    const copy = new TerminalScreen({ cols: 20, rows: 3 });
    copy.feed(await pending);
    expect((await copy.renderFull()).endsWith('last')).toBe(true);
    expect(screen.size).toEqual({ cols: 20, rows: 3 });
    screen.dispose();
    copy.dispose();
  });

  it('refuses once disposed', async () => {
    const screen = new TerminalScreen();
    screen.dispose();
    await expect(screen.serialize()).rejects.toMatchObject({
      code: 'ERR_PROCESS_STATE',
      message: 'cannot serialize: the TerminalScreen was disposed',
    });
    expect(() => screen.size).toThrow('cannot size: the TerminalScreen was disposed');
  });
});
