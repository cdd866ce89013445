// The line index on a terminal where full-screen programs come and go: their renders finish
// later than the output after them arrives, a history cap may cut inside one, and the first
// whole line of a capped history is counted back from a program's screen across rows that
// strip to nothing or wrapped. Each is paged as the same output uncapped and settled numbers it.
import { describe, expect, it } from 'vitest';
import { TranscriptIndex } from '../../src/lines/transcript-index.js';
import { OutputLog } from '../../src/log/output-log.js';

const TERMINAL = { columns: 40, rows: 6 };
const MARKER = '[full-screen program: its last screen, rendered]';

/** vim-like: the alternate screen, two rows and a status line, then back. */
const vim = (first: string) =>
  `\x1b[?1049h\x1b[22;0;0t\x1b[H\x1b[2J${first}\r\nsecond line\r\n~\x1b[6;1H"f" 2L\x1b[2;3H\x1b[?1049l\x1b[23;0;0t`;

function terminal(maxRetainedBytes?: number) {
  const log = new OutputLog({ maxChunkBytes: 4096, ...(maxRetainedBytes ? { maxRetainedBytes } : {}) });
  const index = new TranscriptIndex({ terminal: TERMINAL });
  const add = (chunk: string) => {
    const before = log.totalBytes;
    log.append('stdout', chunk);
    index.add(chunk, before);
  };
  return { log, index, add };
}

const everything = { offset: 0, limit: 100_000 };

describe('TranscriptIndex on a terminal with full-screen programs', () => {
  it('counts output that arrives while earlier screens still render in order, each once', async () => {
    // The second program redraws a lot before its last screen: its render ends well after the first's.
    const redraws = Array.from({ length: 4000 }, (_, i) => `\x1b[H\x1b[2Jframe ${i}\r\nrow`).join('');
    const beta = vim('beta').replace('\x1b[H\x1b[2J', `${redraws}\x1b[H\x1b[2J`);
    const chunks = ['$ vim a\r\n', vim('alpha'), 'between\r\n', beta, 'after\r\n$ '];
    // Settled after every chunk: each render done before the next output.
    const settled = terminal();
    for (const chunk of chunks) {
      settled.add(chunk);
      await settled.index.page(settled.log, { limit: 1 }, 4096);
    }
    const expected = await settled.index.page(settled.log, everything, 4096);
    expect(expected.text.split('\n')).toEqual([
      '$ vim a',
      MARKER,
      'alpha',
      'second line',
      '~',
      '',
      '',
      '"f" 2L',
      '[end of full-screen program]',
      'between',
      MARKER,
      'beta',
      'second line',
      '~',
      '',
      '',
      '"f" 2L',
      '[end of full-screen program]',
      'after',
      '$ ',
    ]);
    // All at once: the second program's output and the text after it wait for the first render.
    const burst = terminal();
    for (const chunk of chunks) burst.add(chunk);
    expect(await burst.index.page(burst.log, everything, 4096)).toEqual(expected);
    expect(burst.index.totalLines).toBe(expected.totalLines);
  });

  it("streams a terminal's transcript with each program's last screen in place of its bytes", async () => {
    const { log, index, add } = terminal();
    for (const chunk of ['$ vim\r\n', vim('alpha'), 'after\r\n']) add(chunk);
    let streamed = '';
    for await (const text of index.chunks(log, 4096)) streamed += text;
    const page = await index.page(log, everything, 4096);
    expect(streamed).toContain(`${MARKER}\nalpha\nsecond line`);
    expect(streamed.split('\n').slice(0, page.lines)).toEqual(page.text.split('\n'));
  });

  it('pages from a program whose start the cap dropped, and counts the output after it', async () => {
    const before = Array.from({ length: 30 }, (_, i) => `before ${i}\r\n`).join('');
    const episode = vim('alpha');
    const after = 'after\r\n';
    // The cap cuts 10 bytes into the program's output.
    const capped = terminal(episode.length - 10 + after.length);
    const whole = terminal();
    for (const chunk of [before, episode, after]) {
      capped.add(chunk);
      whole.add(chunk);
    }
    const all = (await whole.index.page(whole.log, everything, 4096)).text.split('\n');
    const first = all.indexOf(MARKER);
    const page = await capped.index.page(capped.log, everything, 4096);
    expect(page).toMatchObject({ text: all.slice(first).join('\n'), offset: first, droppedLines: first });
    // Output after the cut is counted on from there.
    capped.add('more\r\n');
    whole.add('more\r\n');
    const next = await capped.index.page(capped.log, { offset: first, limit: 100 }, 4096);
    expect(next.text.split('\n')).toEqual([...all.slice(first), 'more']);
    expect(next.totalLines).toBe(whole.index.totalLines);
  });

  it('pages from a program still on screen whose start the cap dropped', async () => {
    const before = Array.from({ length: 30 }, (_, i) => `before ${i}\r\n`).join('');
    const enter = '\x1b[?1049h\x1b[H\x1b[2J';
    const redraws = Array.from({ length: 40 }, (_, i) => `\x1b[H\x1b[2Jframe ${i}\r\nrow two`).join('');
    // The cap keeps the last 200 bytes: the program's start and every line before it are gone.
    const capped = terminal(200);
    const whole = terminal();
    for (const chunk of [before, enter, redraws]) {
      capped.add(chunk);
      whole.add(chunk);
    }
    const all = (await whole.index.page(whole.log, everything, 4096)).text.split('\n');
    const first = all.indexOf('[full-screen program: its screen now, rendered; still running]');
    expect(first).toBe(30);
    expect(all.slice(first + 1, first + 3)).toEqual(['frame 39', 'row two']);
    for (const offset of [0, first]) {
      const page = await capped.index.page(capped.log, { offset, limit: 100 }, 4096);
      expect(page).toMatchObject({ text: all.slice(first).join('\n'), offset: first, droppedLines: first });
    }
  });

  it('shows the screen as the output that came while it was being read left it', async () => {
    const { log, index, add } = terminal();
    add('$ top\r\n\x1b[?1049h\x1b[H\x1b[2Jframe 1');
    // Asked while frame 2 arrives: the page shows the screen with frame 2 drawn.
    const page = index.page(log, everything, 4096);
    add('\x1b[H\x1b[2Jframe 2');
    expect((await page).text.split('\n').slice(1, 3)).toEqual([
      '[full-screen program: its screen now, rendered; still running]',
      'frame 2',
    ]);
  });

  it("says whether a program's screen was rendered, and renders none for a terminal run on pipes", async () => {
    const rendered = terminal();
    expect(rendered.index.rendersFullScreen).toBe(false);
    rendered.add(`$ vim\r\n${vim('alpha')}after\r\n`);
    await rendered.index.page(rendered.log, everything, 4096);
    expect(rendered.index.rendersFullScreen).toBe(true);

    const onPipes = terminal();
    onPipes.index.plain();
    onPipes.add(`$ vim\r\n${vim('alpha')}after\r\n`);
    const page = await onPipes.index.page(onPipes.log, everything, 4096);
    expect(onPipes.index.rendersFullScreen).toBe(false);
    expect(page.text).not.toContain(MARKER);
    expect(page.text.split('\n')[0]).toBe('$ vim');
  });

  it('settles on the screen of a program that never stops redrawing', async () => {
    const { log, index, add } = terminal();
    add('$ top\r\n\x1b[?1049h\x1b[H\x1b[2Jframe 0');
    let settled = false;
    const page = index.page(log, everything, 4096).finally(() => {
      settled = true;
    });
    // A frame every turn of the event loop while the page is read, up to a bound far above
    // what a few renders take: reaching it means the page waited for the program to stop.
    const bound = 2000;
    let frames = 0;
    while (!settled && frames < bound) {
      frames += 1;
      add(`\x1b[H\x1b[2Jframe ${frames}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(frames).toBeLessThan(bound);
    // The screen as it was at some frame while they kept coming, never an empty one.
    expect((await page).text.split('\n')).toEqual([
      '$ top',
      '[full-screen program: its screen now, rendered; still running]',
      expect.stringMatching(/^frame \d+$/),
    ]);
    // Once it stops, the page shows its last frame.
    expect((await index.page(log, everything, 4096)).text.split('\n').slice(1)).toEqual([
      '[full-screen program: its screen now, rendered; still running]',
      `frame ${frames}`,
    ]);
  });

  // The first whole line after the cut is numbered back from the program's start: rows that
  // strip to nothing end no line there, and a row that wrapped and was erased ends one.
  it.each([
    ['colour codes only', '\x1b[0m'.repeat(1250)],
    ['a wrapped row then erased', `${'y'.repeat(5000)}\x1b[2K`],
    ['a wrapped row', `${'y'.repeat(5000)}`],
  ])('numbers the first whole line before a program across %s', async (_, middle) => {
    const before = Array.from({ length: 30 }, (_, i) => `before ${i}\r\n`).join('');
    const chunks = [before, middle, vim('alpha'), 'after\r\n'];
    const total = chunks.reduce((sum, c) => sum + Buffer.byteLength(c), 0);
    // The cut falls inside "before 29": the first whole line is the one after it.
    const capped = terminal(total - (before.length - 8));
    const whole = terminal();
    for (const chunk of chunks) {
      capped.add(chunk);
      whole.add(chunk);
    }
    const all = (await whole.index.page(whole.log, everything, 4096)).text.split('\n');
    const page = await capped.index.page(capped.log, everything, 4096);
    expect(capped.log.firstRetainedStartsLine).toBe(false);
    expect(page).toMatchObject({ text: all.slice(30).join('\n'), offset: 30, droppedLines: 30 });
  });
});
