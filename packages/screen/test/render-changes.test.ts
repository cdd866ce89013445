import { describe, expect, it } from 'vitest';
import { type ScreenChanges, TerminalScreen } from '../src/index.js';

const ESC = '\x1b';

/**
 * What a reader holding all the text does with renderChanges(): drop the redrawn lines, append.
 * Drawn over from the first line, the text's leading line break has no line before it to end.
 */
function splice(held: string, changes: ScreenChanges): string {
  let cut = held.length;
  for (let line = 0; line < changes.redrawn; line++) {
    const at = held.lastIndexOf('\n', cut - 1);
    if (at === -1) return changes.text.replace(/^\n/, '');
    cut = at;
  }
  return held.slice(0, cut) + changes.text;
}

/** Feeds each chunk, reads renderChanges() after each, and returns the spliced and the joined text. */
async function readAll(screen: TerminalScreen, chunks: string[]) {
  let spliced = '';
  let joined = '';
  const redrawn: number[] = [];
  for (const chunk of chunks) {
    screen.feed(chunk);
    const changes = await screen.renderChanges();
    spliced = splice(spliced, changes);
    joined += changes.text;
    redrawn.push(changes.redrawn);
  }
  return { spliced, joined, redrawn };
}

/** A three-line progress display at `step`: redrawn by moving the cursor up over it, as pip and docker do. */
function progress(step: number): string {
  const lines = ['a', 'b', 'c'].map((name) => `\r${ESC}[2K${name}: ${'#'.repeat(step)} ${step * 10}%\r\n`);
  return (step > 0 ? `${ESC}[3A` : '') + lines.join('');
}

/** A frame drawn from the top left, each row erased to its end (procps top's way). */
function frame(n: number, rows = 5): string {
  const body = Array.from({ length: rows - 1 }, (_, row) => `frame ${n} row ${row}${ESC}[K`);
  return `${ESC}[H${body.join('\r\n')}`;
}

describe('renderChanges()', () => {
  it('says which lines a redrawn progress display stands in for, so a reader keeps its last state', async () => {
    const screen = new TerminalScreen({ cols: 40, rows: 10 });
    const chunks = ['$ pull\r\n', ...[0, 1, 2, 3].map(progress), 'done\r\n$ '];
    const { spliced, joined, redrawn } = await readAll(screen, chunks);
    expect(redrawn).toEqual([0, 0, 3, 3, 3, 0]);
    expect(spliced).toBe('$ pull\na: ### 30%\nb: ### 30%\nc: ### 30%\ndone\n$');
    expect(spliced).toBe(await screen.renderFull());
    // Appended as renderNew() returns them, every state comes back.
    expect(joined.match(/^a: /gm)).toHaveLength(4);
    screen.dispose();
  });

  it('says a frame repainted from the top stands in for the last one, also when read half drawn', async () => {
    const screen = new TerminalScreen({ cols: 30, rows: 5 });
    const second = frame(2);
    const half = second.indexOf('frame 2 row 2');
    const { spliced, redrawn } = await readAll(screen, [
      `${ESC}[2J`,
      frame(1),
      second.slice(0, half),
      second.slice(half),
      frame(3),
    ]);
    expect(redrawn).toEqual([0, 0, 4, 2, 4]);
    expect(spliced).toBe(await screen.renderFull());
    expect(spliced.split('\n')).toEqual(['frame 3 row 0', 'frame 3 row 1', 'frame 3 row 2', 'frame 3 row 3']);
    screen.dispose();
  });

  it('says renderNew() is its text', async () => {
    const screen = new TerminalScreen({ cols: 20, rows: 5 });
    screen.feed('>>> i');
    expect(await screen.renderChanges()).toEqual({ text: '>>> i', redrawn: 0 });
    screen.feed('\r>>> im');
    expect(await screen.renderNew()).toBe('m');
    screen.feed(`\r>>> x${ESC}[K`);
    expect(await screen.renderChanges()).toEqual({ text: '\n>>> x', redrawn: 1 });
    screen.dispose();
  });

  it('redraws nothing once the row it read from was trimmed off the scrollback', async () => {
    const screen = new TerminalScreen({ cols: 20, rows: 5, scrollback: 10 });
    screen.feed('first\r\nsecond');
    await screen.renderChanges();
    // 100 lines scroll the anchored row out of the buffer: rows are read from the buffer's start,
    // which is not where the last read began, so no line of the text so far is stood in for.
    screen.feed(Array.from({ length: 100 }, (_, i) => `\r\nline ${i}`).join(''));
    const changes = await screen.renderChanges();
    expect(changes.redrawn).toBe(0);
    expect(changes.text.endsWith('line 99')).toBe(true);
    screen.dispose();
  });

  it('redraws nothing across the alternate screen, a cleared screen or a reset', async () => {
    const screen = new TerminalScreen({ cols: 20, rows: 5 });
    screen.feed('$ vim\r\n');
    await screen.renderChanges();
    screen.feed(`${ESC}[?1049h${ESC}[Hfile text`);
    expect((await screen.renderChanges()).redrawn).toBe(0);
    screen.feed(`${ESC}[Hedited`);
    expect((await screen.renderChanges()).redrawn).toBe(0);
    screen.feed(`${ESC}[?1049l$ `);
    expect((await screen.renderChanges()).redrawn).toBe(0);
    screen.feed('ls\r\nout');
    await screen.renderChanges();
    // `clear` erases the screen and writes from the top: the lines before it are not drawn over.
    screen.feed(`\r\n$ clear\r\n${ESC}[H${ESC}[2J${ESC}[3J$ `);
    expect(await screen.renderChanges()).toEqual({ text: '\n$', redrawn: 0 });
    screen.feed('ls\r\nout');
    await screen.renderChanges();
    screen.feed(`${ESC}cfresh`);
    expect(await screen.renderChanges()).toEqual({ text: '\nfresh', redrawn: 0 });
    // The next redraw in place counts again.
    screen.feed(`\rFRESH`);
    expect(await screen.renderChanges()).toEqual({ text: '\nFRESH', redrawn: 1 });
    screen.dispose();
  });

  it('gives retire() the count for the last look', async () => {
    const screen = new TerminalScreen({ cols: 40, rows: 10 });
    screen.feed(progress(0));
    await screen.renderChanges();
    screen.feed(progress(1));
    expect(await screen.retire()).toMatchObject({ redrawn: 3, delta: '\na: # 10%\nb: # 10%\nc: # 10%' });
  });
});
