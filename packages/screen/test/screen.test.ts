import { throwsWith } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { type ScreenLike, TerminalScreen } from '../src/index.js';

const ESC = '\x1b';

/** Feeds each chunk and collects renderNew() after each. */
async function deltasOf(screen: TerminalScreen, chunks: string[]): Promise<string[]> {
  const deltas: string[] = [];
  for (const chunk of chunks) {
    screen.feed(chunk);
    deltas.push(await screen.renderNew());
  }
  return deltas;
}

describe('rendering', () => {
  it('reflects every byte fed before the call, without waiting', async () => {
    const screen = new TerminalScreen();
    screen.feed('hello');
    screen.feed(' world');
    expect(await screen.renderFull()).toBe('hello world');
    screen.feed('!');
    expect(await screen.renderNew()).toBe('hello world!');
    screen.dispose();
  });

  it('right-trims lines, drops trailing blank lines and keeps blank lines between', async () => {
    const screen = new TerminalScreen();
    screen.feed('a   \r\n\r\n   \r\nb  \r\n\r\n\r\n');
    expect(await screen.renderFull()).toBe('a\n\n\nb');
    screen.dispose();
  });

  it('renders wide characters once, at a wrap and overwritten by half', async () => {
    const screen = new TerminalScreen({ cols: 10, rows: 5 });
    // '你' does not fit in the last column: the terminal leaves it blank and wraps.
    screen.feed('你好世界ab\r\nabcdefghi你x\r\n😀😀\r\n');
    screen.feed('你好\rx');
    expect(await screen.renderFull()).toBe('你好世界ab\nabcdefghi你x\n😀😀\nx 好');
    screen.dispose();
  });

  it('joins a line the terminal wrapped, keeping spaces the program wrote at the edge', async () => {
    const screen = new TerminalScreen({ cols: 10, rows: 5 });
    screen.feed('0123456   789\r\n');
    screen.feed('abcdefghij          k\r\n');
    expect(await screen.renderFull()).toBe('0123456   789\nabcdefghij          k');
    screen.dispose();
  });

  it('renders a line overwritten with \\r in its final state only', async () => {
    const screen = new TerminalScreen();
    screen.feed('10%\r20%\r100%\r\n');
    expect(await screen.renderFull()).toBe('100%');
    expect(await screen.renderNew()).toBe('100%');
    screen.dispose();
  });
});

describe('renderNew', () => {
  it('returns what is new, appending to a growing line and breaking before new lines', async () => {
    const screen = new TerminalScreen();
    expect(await deltasOf(screen, ['$ ', 'ec', 'ho hi\r\n', 'hi\r\n$ '])).toEqual([
      '$',
      ' ec',
      'ho hi',
      '\nhi\n$',
    ]);
    expect(await screen.renderNew()).toBe('');
    screen.dispose();
  });

  it('returns a line redrawn in place whole, on a line of its own', async () => {
    const screen = new TerminalScreen();
    screen.feed('downloading  9%');
    expect(await screen.renderNew()).toBe('downloading  9%');
    screen.feed('\rdownloading 10%');
    expect(await screen.renderNew()).toBe('\ndownloading 10%');
    // A redraw above the last line brings back everything from the changed line on.
    screen.feed(`\r\nnext line${ESC}[1A\rDONE${ESC}[K`);
    expect(await screen.renderNew()).toBe('\nDONE\nnext line');
    screen.dispose();
  });

  it('is correct when the terminal scrolled between two calls', async () => {
    const screen = new TerminalScreen({ cols: 20, rows: 3 });
    screen.feed('one\r\ntwo\r\nthree');
    expect(await screen.renderNew()).toBe('one\ntwo\nthree');
    screen.feed('\r\nfour\r\nfive\r\nsix');
    expect(await screen.renderNew()).toBe('\nfour\nfive\nsix');
    screen.dispose();
  });

  it('continues a line that wraps while it is being typed into', async () => {
    const screen = new TerminalScreen({ cols: 10, rows: 3 });
    const typed = ['$ ', ...'echo abcdefghijklmnopqrstuvwxyz'];
    const deltas = await deltasOf(screen, typed);
    expect(deltas.join('')).toBe('$ echo abcdefghijklmnopqrstuvwxyz');
    // Its first row has scrolled off the 3-row screen. A redraw of a character on the screen
    // brings the whole line back, not just the rows still visible.
    screen.feed(`${ESC}[2A${ESC}[10GM`);
    expect(await screen.renderNew()).toBe('\n$ echo abcdefghijklMnopqrstuvwxyz');
    screen.dispose();
  });

  it('brings a redrawn line back from at most 100 rows above the screen', async () => {
    // One line of 151 rows on a 3-row screen: its first 148 rows are in the scrollback.
    const screen = new TerminalScreen({ cols: 10, rows: 3, scrollback: 1_000 });
    const line = `$ ${Array.from({ length: 150 }, (_, i) => String(i % 10).repeat(10)).join('')}`;
    screen.feed(line);
    expect(await screen.renderNew()).toBe(line);
    // A redraw of the screen's top row (row 148 of the line) brings the line back from row 48.
    screen.feed(`${ESC}[1;1HX`);
    const redrawn = `${line.slice(0, 1480)}X${line.slice(1481)}`;
    expect(await screen.renderNew()).toBe(`\n${redrawn.slice(480)}`);
    expect(await screen.renderFull()).toBe(redrawn);
    screen.dispose();
  });

  it('starts a line at the first row kept when the start of a long line was trimmed away', async () => {
    const screen = new TerminalScreen({ cols: 10, rows: 3, scrollback: 5 });
    // 95 characters, 10 rows: only the last 8 are kept, the first of them a continuation.
    const line = [...'abcdefghi'].map((c) => c.repeat(10)).join('') + 'j'.repeat(5);
    screen.feed(line);
    expect(await screen.renderNew()).toBe(line.slice(20));
    expect(await screen.renderFull()).toBe(line.slice(20));
    screen.feed('!');
    expect(await screen.renderNew()).toBe('!');
    screen.dispose();
  });

  it('returns nothing again when a resize brings lines back from the scrollback', async () => {
    const screen = new TerminalScreen({ cols: 20, rows: 3 });
    for (let i = 1; i <= 10; i++) screen.feed(`l${i}\r\n`);
    screen.feed('$ ');
    expect(await screen.renderNew()).toBe('l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n$');
    // Five more rows: l6-l10 come back onto the screen from the scrollback.
    screen.resize(20, 8);
    expect(await screen.renderNew()).toBe('');
    screen.feed('ls\r\nout');
    expect(await screen.renderNew()).toBe(' ls\nout');
    // The screen shows l5-l10, '$ ls' and 'out': a redraw of its second row comes back from there.
    screen.feed(`${ESC}[2;1Hl6 changed`);
    expect(await screen.renderNew()).toBe('\nl6 changed\nl7\nl8\nl9\nl10\n$ ls\nout');
    screen.dispose();
  });

  it('keeps empty lines that scrolled away before any text followed them', async () => {
    const screen = new TerminalScreen({ cols: 20, rows: 3 });
    screen.feed('top\r\n\r\n\r\n\r\n');
    expect(await screen.renderNew()).toBe('top');
    screen.feed('\r\n\r\n');
    expect(await screen.renderNew()).toBe('');
    screen.feed('text');
    expect(await screen.renderNew()).toBe('\n\n\n\n\n\ntext');
    expect(await screen.renderFull()).toBe('top\n\n\n\n\n\ntext');
    // Returned once: the line after them grows in place, with no empty line again.
    screen.feed(' more');
    expect(await screen.renderNew()).toBe(' more');
    screen.feed('\r\nnext');
    expect(await screen.renderNew()).toBe('\nnext');
    expect(await screen.renderFull()).toBe('top\n\n\n\n\n\ntext more\nnext');
    screen.dispose();
  });

  it('returns nothing after lines are erased, then the next change on a line of its own', async () => {
    const screen = new TerminalScreen({ cols: 20, rows: 5 });
    screen.feed('keep\r\ngone');
    expect(await screen.renderNew()).toBe('keep\ngone');
    screen.feed(`\r${ESC}[2K${ESC}[1A\r`);
    expect(await screen.renderNew()).toBe('');
    screen.feed('keep more');
    expect(await screen.renderNew()).toBe('\nkeep more');
    screen.feed(`${ESC}[H${ESC}[2J`);
    expect(await screen.renderNew()).toBe('');
    screen.feed('after clear');
    expect(await screen.renderNew()).toBe('\nafter clear');
    screen.dispose();
  });

  it('returns all that is kept when more scrolled off than the scrollback holds', async () => {
    const screen = new TerminalScreen({ cols: 20, rows: 3, scrollback: 5 });
    screen.feed('first');
    expect(await screen.renderNew()).toBe('first');
    for (let i = 1; i <= 20; i++) screen.feed(`\r\nline ${i}`);
    expect(await screen.renderNew()).toBe(
      ['\nline 13', 'line 14', 'line 15', 'line 16', 'line 17', 'line 18', 'line 19', 'line 20'].join('\n'),
    );
    screen.dispose();
  });

  it('keeps up when the scrollback is cleared (ESC[3J) and when the terminal resets (ESC c)', async () => {
    const screen = new TerminalScreen({ cols: 20, rows: 3 });
    screen.feed('a\r\nb\r\nc\r\nd\r\ne');
    expect(await screen.renderNew()).toBe('a\nb\nc\nd\ne');
    screen.feed(`${ESC}[3J`);
    expect(await screen.renderFull()).toBe('c\nd\ne');
    expect(await screen.renderNew()).toBe('');
    screen.feed('\r\nf');
    expect(await screen.renderNew()).toBe('\nf');
    screen.feed(`${ESC}cfresh`);
    expect(await screen.renderFull()).toBe('fresh');
    expect(await screen.renderNew()).toBe('\nfresh');
    screen.feed('\r\nmore\r\n1\r\n2\r\n3');
    expect(await screen.renderNew()).toBe('\nmore\n1\n2\n3');
    screen.dispose();
  });

  it('shows a full-screen program, loses nothing printed just before it, and continues after it', async () => {
    const screen = new TerminalScreen({ cols: 20, rows: 3 });
    screen.feed('$ ');
    expect(await screen.renderNew()).toBe('$');
    // Output scrolls, then the program switches to the alternate screen in the same read.
    screen.feed(`run\r\nout 1\r\nout 2\r\nout 3\r\n${ESC}[?1049h${ESC}[H${ESC}[2JFULL SCREEN`);
    expect(await screen.renderNew()).toBe(' run\nout 1\nFULL SCREEN');
    expect(screen.modes.alternateScreen).toBe(true);
    expect(await screen.renderFull()).toBe('$ run\nout 1\nFULL SCREEN');
    screen.feed(`${ESC}[2;1Hline two`);
    expect(await screen.renderNew()).toBe('\nline two');
    screen.feed(`${ESC}[?1049l`);
    // Back on the normal screen: it comes back as a redraw, and output continues below it.
    expect(await screen.renderNew()).toBe('\nout 2\nout 3');
    screen.feed('$ echo after\r\nafter\r\n$ ');
    expect(await screen.renderNew()).toBe('\n$ echo after\nafter\n$');
    expect(await screen.renderFull()).toBe('$ run\nout 1\nout 2\nout 3\n$ echo after\nafter\n$');
    screen.dispose();
  });

  it('starts the full-screen program on a line of its own when its top row continues a line', async () => {
    const screen = new TerminalScreen({ cols: 10, rows: 3 });
    screen.feed('a\r\nb\r\nc\r\nlast');
    // On the alternate screen a 15-character line wraps at the bottom, then scrolls up until
    // its second half is the top row, still marked as continuing the row that scrolled away.
    screen.feed(`${ESC}[?1049h${ESC}[3;1H0123456789abcde\r\n\r\n`);
    expect(await screen.renderFull()).toBe('a\nabcde');
    screen.dispose();
  });

  it('does not lose lines when resized while a full-screen program runs', async () => {
    const screen = new TerminalScreen({ cols: 20, rows: 3 });
    screen.feed('a\r\nb\r\nc');
    expect(await screen.renderNew()).toBe('a\nb\nc');
    screen.feed(`\r\nd\r\ne\r\nf\r\n${ESC}[?1049hvim`);
    // 'e' and 'f' are on the normal screen, hidden behind the full-screen program for now.
    expect(await screen.renderNew()).toBe('\nd\n\n\nvim');
    screen.resize(10, 3);
    screen.feed(`${ESC}[?1049l\r\ng\r\nh`);
    const text = (await screen.renderNew()).split('\n');
    for (const line of ['e', 'f', 'g', 'h']) expect(text).toContain(line);
    screen.dispose();
  });

  it('returns nothing new after a resize that only reflowed lines', async () => {
    const screen = new TerminalScreen({ cols: 40, rows: 5 });
    screen.feed(`$ ${'x'.repeat(70)}\r\n$ `);
    expect(await screen.renderNew()).toBe(`$ ${'x'.repeat(70)}\n$`);
    screen.resize(30, 5);
    expect(await screen.renderNew()).toBe('');
    expect(await screen.renderFull()).toBe(`$ ${'x'.repeat(70)}\n$`);
    screen.resize(100, 8);
    expect(await screen.renderNew()).toBe('');
    screen.feed('ls');
    expect(await screen.renderNew()).toBe(' ls');
    screen.dispose();
  });

  it('serves concurrent calls in order, each seeing what was fed before it', async () => {
    const screen = new TerminalScreen();
    screen.feed('a');
    const first = screen.renderNew();
    screen.feed('b');
    const second = screen.renderNew();
    const order: string[] = [];
    const settle = (name: string) => (text: string) => {
      order.push(name);
      return text;
    };
    const [x, y] = await Promise.all([first.then(settle('first')), second.then(settle('second'))]);
    expect(order).toEqual(['first', 'second']);
    // The first may already see 'b' (it was parsed with 'a'); the second never misses it.
    expect(x.startsWith('a')).toBe(true);
    expect(`${x}${y}`).toBe('ab');
    screen.dispose();
  });
});

describe('feed', () => {
  // CPU-bound: the timeout guards against a hang, with room for a machine loaded many times over.
  it('never drops output, even beyond what xterm.js accepts unparsed (50 MB)', async () => {
    const chunk = `${'z'.repeat(98)}\r\n`.repeat(20_000); // 2 MB
    const screen = new TerminalScreen({ scrollback: 1_000 });
    for (let i = 0; i < 30; i++) screen.feed(chunk);
    screen.feed('the end');
    const lines = (await screen.renderNew()).split('\n');
    expect(lines).toHaveLength(1_030);
    expect(lines.at(-2)).toBe('z'.repeat(98));
    expect(lines.at(-1)).toBe('the end');
    screen.dispose();
  }, 240_000);
});

describe('cursor, modes and replies', () => {
  it('reports the cursor 1-based on the screen, clamped to the last column', async () => {
    const screen = new TerminalScreen({ cols: 10, rows: 4 });
    expect(screen.cursor).toEqual({ row: 1, col: 1 });
    screen.feed('ab\r\ncd');
    await screen.flush();
    expect(screen.cursor).toEqual({ row: 2, col: 3 });
    screen.feed('\r\n0123456789');
    await screen.flush();
    expect(screen.cursor).toEqual({ row: 3, col: 10 });
    screen.feed('\r\n\r\n\r\nend');
    await screen.flush();
    expect(screen.cursor).toEqual({ row: 4, col: 4 });
    screen.feed(`${ESC}[?1049h${ESC}[2;5H`);
    await screen.flush();
    expect(screen.cursor).toEqual({ row: 2, col: 5 });
    screen.dispose();
  });

  it('knows bracketed paste, application cursor keys and the alternate screen', async () => {
    const screen = new TerminalScreen();
    expect(screen.modes).toEqual({
      bracketedPaste: false,
      applicationCursorKeys: false,
      alternateScreen: false,
    });
    screen.feed(`${ESC}[?2004h${ESC}[?1h${ESC}[?1049h`);
    await screen.flush();
    expect(screen.modes).toEqual({
      bracketedPaste: true,
      applicationCursorKeys: true,
      alternateScreen: true,
    });
    screen.feed(`${ESC}[?2004l${ESC}[?1l${ESC}[?1049l`);
    await screen.flush();
    expect(screen.modes).toEqual({
      bracketedPaste: false,
      applicationCursorKeys: false,
      alternateScreen: false,
    });
    screen.dispose();
  });

  it('stops calling a reply listener once its disposer ran', async () => {
    const screen = new TerminalScreen();
    const replies: string[] = [];
    const stop = screen.onReply((data) => replies.push(data));
    screen.feed(`${ESC}[6n`);
    await screen.flush();
    stop();
    screen.feed(`${ESC}[5n`);
    await screen.flush();
    expect(replies).toEqual([`${ESC}[1;1R`]);
    screen.dispose();
  });

  it('answers terminal queries through onReply, in order, until disposed of', async () => {
    const screen = new TerminalScreen();
    const replies: string[] = [];
    const other: string[] = [];
    const stop = screen.onReply((data) => replies.push(data));
    screen.onReply((data) => other.push(data));
    screen.feed(`hello${ESC}[6n\r\n${ESC}[c`);
    await screen.flush();
    expect(replies).toEqual([`${ESC}[1;6R`, `${ESC}[?1;2c`]);
    stop();
    stop();
    screen.feed(`${ESC}[6n`);
    await screen.flush();
    expect(replies).toHaveLength(2);
    expect(other).toEqual([`${ESC}[1;6R`, `${ESC}[?1;2c`, `${ESC}[2;1R`]);
    screen.dispose();
  });
});

describe('dispose', () => {
  it('makes every later call throw ERR_PROCESS_STATE, and is idempotent', async () => {
    const screen: ScreenLike = new TerminalScreen();
    const stop = screen.onReply(() => undefined);
    screen.dispose();
    screen.dispose();
    stop();
    const calls: [string, () => unknown][] = [
      ['feed', () => screen.feed('x')],
      ['resize', () => screen.resize(80, 24)],
      ['cursor', () => screen.cursor],
      ['modes', () => screen.modes],
      ['onReply', () => screen.onReply(() => undefined)],
    ];
    for (const [name, call] of calls) {
      const caught = throwsWith(() => call(), 'ERR_PROCESS_STATE');
      expect(caught.message).toBe(`cannot ${name}: the TerminalScreen was disposed`);
      expect(caught.details).toEqual({ operation: name });
    }
    const renders: [string, () => Promise<unknown>][] = [
      ['renderFull', () => screen.renderFull()],
      ['renderNew', () => screen.renderNew()],
      ['flush', () => screen.flush!()],
    ];
    for (const [name, render] of renders) {
      await expect(render()).rejects.toMatchObject({
        code: 'ERR_PROCESS_STATE',
        message: `cannot ${name}: the TerminalScreen was disposed`,
        details: { operation: name },
      });
    }
  });

  it('rejects a render that was waiting for the parser', async () => {
    const screen = new TerminalScreen();
    screen.feed('x'.repeat(100_000));
    const pending = screen.renderNew();
    screen.dispose();
    await expect(pending).rejects.toMatchObject({
      code: 'ERR_PROCESS_STATE',
      message: 'cannot wait for output to be parsed: the TerminalScreen was disposed',
    });
  });
});

/** What `read` says once `text` is fed and parsed. */
async function afterFeed(screen: TerminalScreen, text: string, read: () => string): Promise<string> {
  screen.feed(text);
  await screen.flush();
  return read();
}

describe('cursorPrompt', () => {
  it('is the line up to the cursor: blanks before it kept, a wrapped prompt whole, nothing after it', async () => {
    const screen = new TerminalScreen({ cols: 10, rows: 5 });
    const promptAfter = (text: string) => afterFeed(screen, text, () => screen.cursorPrompt());
    expect(await promptAfter('>>> ')).toBe('>>> ');
    // A right-hand prompt drawn past the cursor, the cursor sent back: left out.
    expect(await promptAfter('\x1b7\x1b[8G[9]\x1b8')).toBe('>>> ');
    expect(screen.cursorLine()).toBe('>>>    [9]');
    expect(await promptAfter('\r\n0123456789ab? ')).toBe('0123456789ab? ');
    // The cursor at the start of a row of text (vim's, in its file): nothing precedes it.
    expect(await promptAfter('\r\nsome text\r')).toBe('');
    screen.dispose();
    throwsWith(() => screen.cursorPrompt(), 'ERR_PROCESS_STATE');
  });

  it("is empty when the cursor rests past a row written to the last column (top's last row)", async () => {
    const screen = new TerminalScreen({ cols: 10, rows: 3 });
    screen.feed('PID\r\n0123456789');
    await screen.flush();
    expect(screen.cursorPrompt()).toBe('');
    expect(screen.cursorLine()).toBe('0123456789');
    // One character more starts the next row: that is a line being written.
    screen.feed('>');
    await screen.flush();
    expect(screen.cursorPrompt()).toBe('0123456789>');
    screen.dispose();
  });
});

describe('cursorLine', () => {
  it('is the whole line the cursor is on: a prompt written in pieces, a wrapped line, an empty row', async () => {
    const screen = new TerminalScreen({ cols: 10, rows: 5 });
    screen.feed('done\r\n>');
    await screen.flush();
    expect(screen.cursorLine()).toBe('>');
    screen.feed('>> ');
    await screen.flush();
    // The blank before the cursor is the prompt's own: a pattern ending in it must match.
    expect(screen.cursorLine()).toBe('>>> ');
    screen.feed('\r\n0123456789abcd');
    await screen.flush();
    expect(screen.cursorLine()).toBe('0123456789abcd');
    screen.feed('\r\n');
    await screen.flush();
    expect(screen.cursorLine()).toBe('');
    screen.dispose();
    throwsWith(() => screen.cursorLine(), 'ERR_PROCESS_STATE');
  });

  it('keeps the blanks before the cursor, on a wrapped line too, and none past it or past the text', async () => {
    const screen = new TerminalScreen({ cols: 10, rows: 5 });
    const lineAfter = (text: string) => afterFeed(screen, text, () => screen.cursorLine());
    expect(await lineAfter('name?  ')).toBe('name?  ');
    // The cursor moved back over text: the line is its text, not cut at the cursor.
    expect(await lineAfter('\b\b\b\b')).toBe('name?');
    // Moved right over empty cells: those before it count.
    expect(await lineAfter('\x1b[5C')).toBe('name?   ');
    expect(await lineAfter('\r\n0123456789ab $ ')).toBe('0123456789ab $ ');
    expect(await lineAfter('\r\n')).toBe('');
    screen.dispose();
  });
});
