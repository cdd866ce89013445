// Behaviour on byte streams recorded from real programs in a real PTY (test/fixtures/record.mjs).
import { describe, expect, it } from 'vitest';
import { TerminalScreen } from '../src/index.js';
import { loadFixture } from './fixture.js';

async function feedAll(screen: TerminalScreen, chunks: string[], renderEach = false): Promise<string[]> {
  const deltas: string[] = [];
  for (const chunk of chunks) {
    screen.feed(chunk);
    if (renderEach) deltas.push(await screen.renderNew());
  }
  return deltas;
}

const lastLine = (text: string) => text.split('\n').at(-1);

describe('python3 -i, typing one key at a time', () => {
  const fixture = loadFixture('python-typing');

  it('renders the prompt line as typed so far after every key, never one prompt per keystroke', async () => {
    const screen = new TerminalScreen();
    await feedAll(screen, fixture.before('prompt'));
    expect(lastLine(await screen.renderFull())).toBe('>>>');
    const typed = fixture.chunks.slice(fixture.meta.marks.prompt, fixture.meta.marks.typed);
    expect(typed.length).toBeGreaterThanOrEqual('import sys'.length);
    for (const chunk of typed) {
      screen.feed(chunk);
      const full = await screen.renderFull();
      expect('>>> import sys'.startsWith(lastLine(full)!)).toBe(true);
      expect(full).not.toMatch(/>>> i.*>>>/);
    }
    expect(lastLine(await screen.renderFull())).toBe('>>> import sys');
    screen.dispose();
  });

  it('gives renderNew() deltas that read as the same text when concatenated', async () => {
    const screen = new TerminalScreen();
    const deltas = await feedAll(screen, fixture.chunks, true);
    const text = deltas.join('');
    expect(text.split('\n').slice(-2)).toEqual(['>>> import sys', '>>>']);
    expect(text).not.toMatch(/>>> i>>>/);
    expect(text).toBe(await screen.renderFull());
    // Each key came back as just that key.
    const typing = deltas.slice(fixture.meta.marks.prompt, fixture.meta.marks.typed).join('');
    expect(typing).toBe(' import sys');
    screen.dispose();
  });
});

describe('vim in bash: open, insert, :wq', () => {
  const fixture = loadFixture('vim-edit');

  it('shows what vim shows while it runs, on the alternate screen', async () => {
    const screen = new TerminalScreen();
    await feedAll(screen, fixture.before('inVim'));
    const lines = (await screen.renderFull()).split('\n');
    expect(screen.modes.alternateScreen).toBe(true);
    // The shell's lines are hidden (and none had scrolled into the scrollback); the last row,
    // vim's command line, is empty after Escape.
    expect(lines).toEqual(['hello from vim', ...Array(28).fill('~')]);
    // The cursor is where vim put it after Escape: on the last character typed.
    expect(screen.cursor).toEqual({ row: 1, col: 14 });
    screen.dispose();
  });

  it('continues the shell output below after vim exits', async () => {
    const screen = new TerminalScreen();
    await feedAll(screen, fixture.before('inVim'));
    await screen.flush();
    expect(screen.modes.alternateScreen).toBe(true);
    await feedAll(screen, fixture.from('inVim'));
    await screen.flush();
    expect(screen.modes.alternateScreen).toBe(false);
    expect(await screen.renderFull()).toBe(
      ['$ echo before', 'before', '$ vim -Nu NONE -i NONE notes.txt', '$ echo after', 'after', '$'].join(
        '\n',
      ),
    );
    screen.dispose();
  });

  it('streams vim as redraws and the shell after it as one text', async () => {
    const screen = new TerminalScreen();
    const deltas = await feedAll(screen, fixture.chunks, true);
    const text = deltas.join('');
    expect(text.startsWith('$ echo before\nbefore\n$ vim -Nu NONE -i NONE notes.txt\n')).toBe(true);
    expect(text).toContain('\nhello from vim\n~\n');
    expect(text.endsWith('\n$ echo after\nafter\n$')).toBe(true);
    const afterVim = deltas.slice(fixture.meta.marks.afterVim).join('');
    expect(afterVim).toBe(' echo after\nafter\n$');
    screen.dispose();
  });

  it('answers the queries vim sends through onReply', async () => {
    const screen = new TerminalScreen();
    const replies: string[] = [];
    screen.onReply((data) => replies.push(data));
    await feedAll(screen, fixture.before('inVim'));
    await screen.flush();
    // vim asks for the cursor position (twice, to measure character widths) and the terminal version.
    expect(replies.filter((r) => /^\x1b\[\d+;\d+R$/.test(r))).toHaveLength(2);
    expect(replies.some((r) => r.startsWith('\x1b[>'))).toBe(true);
    screen.dispose();
  });
});

describe('10,000 printed lines', () => {
  const fixture = loadFixture('seq-10000');
  const expected = Array.from({ length: 10_000 }, (_, i) => `line ${i + 1}`);

  it('returns each line exactly once, in order, when read after every chunk', async () => {
    const screen = new TerminalScreen();
    const deltas = await feedAll(screen, fixture.chunks, true);
    expect(fixture.chunks.length).toBeGreaterThan(100);
    expect(deltas.join('').split('\n')).toEqual(expected);
    screen.dispose();
  });

  it.each([3, 17, 60])('returns each line exactly once when read every %i chunks', async (every) => {
    const screen = new TerminalScreen();
    let text = '';
    for (let i = 0; i < fixture.chunks.length; i++) {
      screen.feed(fixture.chunks[i]!);
      if (i % every === every - 1) text += await screen.renderNew();
    }
    text += await screen.renderNew();
    expect(text.split('\n')).toEqual(expected);
    screen.dispose();
  });

  it('returns the last scrollback + rows lines when read once at the end with the default scrollback', async () => {
    const screen = new TerminalScreen();
    await feedAll(screen, fixture.chunks);
    const text = await screen.renderNew();
    // 5,000 lines of scrollback + 30 rows, the last row being the empty line the cursor is on.
    expect(text.split('\n')).toEqual(expected.slice(10_000 - (5_000 + 30 - 1)));
    expect(text).toBe(await screen.renderFull());
    expect(await screen.renderNew()).toBe('');
    screen.dispose();
  });

  it('returns all of them when read once at the end with a scrollback that holds them', async () => {
    const screen = new TerminalScreen({ scrollback: 10_000 });
    await feedAll(screen, fixture.chunks);
    expect((await screen.renderNew()).split('\n')).toEqual(expected);
    screen.dispose();
  });
});

describe('a \\r progress bar', () => {
  const fixture = loadFixture('progress-bar');

  it('renders its final state only', async () => {
    const screen = new TerminalScreen();
    await feedAll(screen, fixture.chunks);
    const final = 'Downloading [#########################] 100%\ndone';
    expect(await screen.renderFull()).toBe(final);
    expect(await screen.renderNew()).toBe(final);
    screen.dispose();
  });

  it('returns each update as a redraw on a line of its own when read after every chunk', async () => {
    const screen = new TerminalScreen();
    const text = (await feedAll(screen, fixture.chunks, true)).join('');
    const lines = text.split('\n');
    expect(lines[0]).toBe('Downloading [                         ]   0%');
    expect(lines.slice(-2)).toEqual(['Downloading [#########################] 100%', 'done']);
    expect(lines.every((line) => /^Downloading \[#* *\] +\d+%$|^done$/.test(line))).toBe(true);
    screen.dispose();
  });
});

describe('wide characters from a real program', () => {
  const fixture = loadFixture('wide-chars');

  it('renders CJK and emoji once, also where they wrap and where half of one was overwritten', async () => {
    const screen = new TerminalScreen();
    const deltas = await feedAll(screen, fixture.chunks, true);
    const full = await screen.renderFull();
    expect(full.split('\n')).toEqual([
      'CJK: 你好，世界 — 宽字符 end',
      'emoji: 😀 🎉 👍 end',
      `x${'你'.repeat(70)}`,
      '😀'.repeat(65),
      'x 好世界',
      // Emoji are two columns wide: four columns right of the start is the third one.
      '😀😀X 😀',
      'done',
    ]);
    expect(deltas.join('')).toBe(full);
    screen.dispose();
  });
});
