// The transcript index on a terminal: full-screen episodes (alternate screen, repaints of the
// normal screen) rendered in place, however the output was chunked, with exact caps accounting.

import { propertyRuns } from '@procmux/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TranscriptIndex } from '../../src/lines/transcript-index.js';
import { OutputLog } from '../../src/log/output-log.js';
import { ScreenScanner } from '../../src/screen/screen-scan.js';

const TERMINAL = { columns: 40, rows: 6 };

function feed(chunks: string[], maxRetainedBytes?: number): { log: OutputLog; index: TranscriptIndex } {
  const log = new OutputLog({ maxChunkBytes: 4096, ...(maxRetainedBytes ? { maxRetainedBytes } : {}) });
  const index = new TranscriptIndex({ terminal: TERMINAL });
  for (const chunk of chunks) {
    const before = log.totalBytes;
    log.append('stdout', chunk);
    index.add(chunk, before);
  }
  return { log, index };
}

const all = (log: OutputLog, index: TranscriptIndex) => index.page(log, { offset: 0, limit: 100_000 }, 4096);

/** A top-like frame: home, then four rows, each cleared to its end. */
const frame = (n: number, cpu: string) =>
  `\x1b[Htop ${n}\x1b[K\r\nTasks: 9\x1b[K\r\n\r\nPID CPU\x1b[K\r\n1   ${cpu}\x1b[K`;

/** vim-like: switch to the alternate screen, clear, draw two rows and a status line, leave. */
const VIM =
  '\x1b[?1049h\x1b[22;0;0t\x1b[H\x1b[2Jfirst line\r\nsecond line\r\n~\x1b[6;1H"f" 2L\x1b[2;3H\x1b[?1049l\x1b[23;0;0t';

describe('ScreenScanner', () => {
  it('finds switches split anywhere across chunks, with their whole sequence', () => {
    const text = `a\x1b[?1049hb\x1b[5;3Hc\x1b[?25;1047ld\x1b[2Je\x1b[31mf\x1b[?2004h`;
    for (let cut = 0; cut <= text.length; cut++) {
      const scanner = new ScreenScanner();
      const first = scanner.scan(text.slice(0, cut)).map((s) => ({ ...s, chunk: 0 }));
      const second = scanner
        .scan(text.slice(cut))
        .map((s) => ({ ...s, start: s.start + cut, end: s.end + cut }));
      const found = [...first, ...second].map(({ kind, start, end, sequence }) => ({
        kind,
        start,
        end,
        sequence,
      }));
      expect(found).toEqual([
        { kind: 'enter', start: 1, end: 9, sequence: '\x1b[?1049h' },
        { kind: 'repaint', start: 10, end: 16, sequence: '\x1b[5;3H' },
        { kind: 'leave', start: 17, end: 28, sequence: '\x1b[?25;1047l' },
        { kind: 'repaint', start: 29, end: 33, sequence: '\x1b[2J' },
      ]);
    }
  });
});

describe('TranscriptIndex on a terminal', () => {
  it("puts a full-screen episode's last screen in place of its bytes, between markers", async () => {
    const { log, index } = feed(['$ vim f\r\n', VIM, '\r$ echo after\r\nafter\r\n$ ']);
    const page = await all(log, index);
    expect(page.text.split('\n')).toEqual([
      '$ vim f',
      '[full-screen program: its last screen, rendered]',
      'first line',
      'second line',
      '~',
      '',
      '',
      '"f" 2L',
      '[end of full-screen program]',
      '$ echo after',
      'after',
      '$ ',
    ]);
    expect(page.totalLines).toBe(12);
    expect(page.text).not.toMatch(/\x1b|\[\?|22;0;0t/);
  });

  it("keeps a program's first row when it leaves with a line feed on the bottom row (vim's :wq), however cut", async () => {
    // vim after :wq: its message on the last row, then \r\n (a scroll), then the switch back.
    const wq =
      '\x1b[?1049h\x1b[H\x1b[2Jsubject\r\n~\r\n~\r\n~\r\n~\x1b[6;1H"f" 1L written\r\x1b[23;2t\r\r\n\x1b[?2004l\x1b[?1049l';
    const expected = [
      '$ vim f',
      '[full-screen program: its last screen, rendered]',
      'subject',
      '~',
      '~',
      '~',
      '~',
      '"f" 1L written',
      '[end of full-screen program]',
      '$ ',
    ];
    for (let cut = 0; cut <= wq.length; cut++) {
      const { log, index } = feed(['$ vim f\r\n', wq.slice(0, cut), wq.slice(cut), '$ '].filter(Boolean));
      expect((await all(log, index)).text.split('\n'), `cut at ${cut}`).toEqual(expected);
    }
  });

  it('applies a held line feed once the program draws again, and shows the screen as of its last text meanwhile', async () => {
    const rows = '\x1b[?1049h\x1b[H\x1b[2Ja\r\nb\r\nc\r\nd\r\ne\r\nf\r\n';
    const { log, index } = feed(['$ x\r\n', rows]);
    expect((await all(log, index)).text.split('\n').slice(1)).toEqual([
      '[full-screen program: its screen now, rendered; still running]',
      ...'abcdef',
    ]);
    for (const chunk of ['g', '\x1b[?1049l$ ']) {
      const before = log.totalBytes;
      log.append('stdout', chunk);
      index.add(chunk, before);
    }
    expect((await all(log, index)).text.split('\n').slice(1, -2)).toEqual([
      '[full-screen program: its last screen, rendered]',
      ...'bcdefg',
    ]);
  });

  it('holds back at most 1,024 units: a longer run of line feeds still scrolls the screen', async () => {
    // 1,030 line feeds: 6 of them go through (a 6-row screen: 'top' scrolls out), 1,024 are held.
    const { log, index } = feed(['$ x\r\n', `\x1b[?1049h\x1b[Htop${'\n'.repeat(1030)}`, '\x1b[?1049l$ ']);
    expect((await all(log, index)).text.split('\n')).toEqual(['$ x', '$ ']);
    const few = feed(['$ x\r\n', `\x1b[?1049h\x1b[Htop${'\n'.repeat(1024)}`, '\x1b[?1049l$ ']);
    expect((await all(few.log, few.index)).text.split('\n')).toEqual([
      '$ x',
      '[full-screen program: its last screen, rendered]',
      'top',
      '[end of full-screen program]',
      '$ ',
    ]);
  });

  it('starts the episode on a line of its own after a row so long it wrapped, then was erased', async () => {
    // 4,097 units wrap once at the stripper's 4,096-unit row: the first 4,096 are given out
    // early, and the one left over is erased, so nothing of the row is still held.
    const long = 'y'.repeat(4097);
    const { log, index } = feed([`${long}\r\x1b[2K`, VIM, '\r$ \r\n']);
    const page = await all(log, index);
    expect(page.text.split('\n').slice(0, 3)).toEqual([
      'y'.repeat(4096),
      '[full-screen program: its last screen, rendered]',
      'first line',
    ]);
    expect(page.totalLines).toBe(page.text.split('\n').length);
  });

  it('pages the same however the output was cut, sequences split included (property)', async () => {
    const piece = fc.constantFrom(
      'ab',
      '\r\n',
      '\n',
      '\r',
      '\x1b[31m',
      '\x1b[?1049h',
      '\x1b[?1049l',
      '\x1b[H',
      '\x1b[2J',
      '\x1b[3;5H',
      'y'.repeat(700),
      'row\r\n'.repeat(9),
      // A row past the stripper's 4,096 units wraps softly; erased, nothing of it is held.
      'z'.repeat(3000),
      '\x1b[2K',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { maxLength: 60 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.nat(80),
        fc.integer({ min: 1, max: 40 }),
        async (pieces, cuts, offset, limit) => {
          const text = pieces.join('');
          const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          const chunks: string[] = [];
          let from = 0;
          for (const point of [...points, text.length]) {
            if (point > from) chunks.push(text.slice(from, point));
            from = Math.max(from, point);
          }
          const whole = feed(text === '' ? [] : [text]);
          const cut = feed(chunks);
          whole.index.end(whole.log.totalBytes);
          cut.index.end(cut.log.totalBytes);
          const expected = await all(whole.log, whole.index);
          expect(await all(cut.log, cut.index)).toEqual(expected);
          // Every line is counted once: the full page has totalLines lines.
          expect(expected.lines).toBe(expected.totalLines);
          expect(expected.text).not.toContain('\x1b');
          const window = await cut.index.page(cut.log, { offset, limit }, 4096);
          const lines = expected.lines === 0 ? [] : expected.text.split('\n');
          expect(window.text).toBe(lines.slice(offset, offset + limit).join('\n'));
          expect(window.lines).toBe(lines.slice(offset, offset + limit).length);
        },
      ),
      { numRuns: propertyRuns(60) },
    );
  });

  it('shows a program still on screen as it is now, and lines served before stay as they were', async () => {
    const { log, index } = feed(['one\r\ntwo\r\n', '\x1b[?1049h\x1b[Hdraft 1']);
    const during = await all(log, index);
    expect(during.text.split('\n')).toEqual([
      'one',
      'two',
      '[full-screen program: its screen now, rendered; still running]',
      'draft 1',
    ]);
    for (const chunk of ['\x1b[Hdraft 2', '\x1b[?1049lthree\r\n']) {
      const before = log.totalBytes;
      log.append('stdout', chunk);
      index.add(chunk, before);
    }
    const after = await all(log, index);
    expect(after.text.split('\n')).toEqual([
      'one',
      'two',
      '[full-screen program: its last screen, rendered]',
      'draft 2',
      '[end of full-screen program]',
      'three',
    ]);
    // The page of lines 0-1 served during the episode is still valid.
    expect((await index.page(log, { offset: 0, limit: 2 }, 4096)).text).toBe('one\ntwo');
  });

  it('renders a repainted normal screen (top) as its last state, and a plain clear without markers', async () => {
    const { log, index } = feed([
      '$ top\r\n',
      '\x1b[H\x1b[2J',
      frame(1, '50.0'),
      // Later frames skip the rows that did not change, as top does.
      '\x1b[Htop 2\x1b[K\r\n\n\n\n1   7.5\x1b[K',
    ]);
    index.end(log.totalBytes);
    expect((await all(log, index)).text.split('\n')).toEqual([
      '$ top',
      '[screen repainted in place: its last state, rendered]',
      'top 2',
      'Tasks: 9',
      '',
      'PID CPU',
      '1   7.5',
      '[end of repainted screen]',
    ]);
    const clear = feed(['old\r\n', '\x1b[H\x1b[2J\x1b[3J', 'fresh\r\n$ ']);
    clear.index.end(clear.log.totalBytes);
    expect((await all(clear.log, clear.index)).text.split('\n')).toEqual(['old', 'fresh', '$']);
  });

  it("draws a repainting program's last frame read after the shell took the terminal back, and ends there", async () => {
    let group = 200;
    const log = new OutputLog({ maxChunkBytes: 4096 });
    const index = new TranscriptIndex({
      terminal: TERMINAL,
      foreground: () => ({ group, name: group === 200 ? 'top' : 'bash' }),
    });
    const add = (chunk: string) => {
      const before = log.totalBytes;
      log.append('stdout', chunk);
      index.add(chunk, before);
    };
    add('$ top\r\n');
    add(`\x1b[H\x1b[2J${frame(1, '50.0')}`);
    // top drew its last frame and quit; the host read it only after the shell was back.
    group = 100;
    add(`${frame(2, '7.5')}\x1b[6;1H\r\n`);
    add('$ echo after\r\nafter\r\n');
    index.end(log.totalBytes);
    expect((await all(log, index)).text.split('\n')).toEqual([
      '$ top',
      '[screen repainted in place by top: its last state, rendered]',
      'top 2',
      'Tasks: 9',
      '',
      'PID CPU',
      '1   7.5',
      '[end of repainted screen: top]',
      '$ echo after',
      'after',
    ]);
  });

  it('ends a repaint episode where plain lines stream past, so a long output after clear is all there', async () => {
    const lines = Array.from({ length: 500 }, (_, i) => `n${i}`);
    const { log, index } = feed(['\x1b[H\x1b[2J', `${lines.join('\r\n')}\r\n`, 'end']);
    const page = await all(log, index);
    expect(page.text.split('\n')).toEqual([...lines, 'end']);
  });

  it('counts what the cap dropped exactly, an episode whose start is gone included', async () => {
    const before = Array.from({ length: 20 }, (_, i) => `before ${i}\r\n`).join('');
    const episode = `\x1b[?1049h\x1b[Hscreen${'\x1b[H'.repeat(1000)}\x1b[?1049l`;
    const { log, index } = feed([before, episode, 'after 0\r\n'], 2048);
    // The cap (2 KiB) dropped the lines before and the episode's start: its block stays pageable.
    expect(log.firstRetainedOffset).toBeGreaterThan(Buffer.byteLength(before));
    let page = await index.page(log, { offset: 0, limit: 100 }, 4096);
    expect(page.droppedLines).toBe(20);
    expect(page.droppedBytes).toBe(Buffer.byteLength(before) + '\x1b[?1049h'.length);
    expect(page.offset).toBe(20);
    expect(page.text.split('\n')).toEqual([
      '[full-screen program: its last screen, rendered]',
      'screen',
      '[end of full-screen program]',
      'after 0',
    ]);
    // Once the episode's end is dropped too, its three lines are counted as dropped.
    const more = Array.from({ length: 200 }, (_, i) => `after ${i + 1}\r\n`).join('');
    const at = log.totalBytes;
    log.append('stdout', more);
    index.add(more, at);
    page = await index.page(log, { offset: 0, limit: 100_000 }, 4096);
    // Exact either way: what is shown plus what was dropped is the whole transcript.
    expect(page.totalLines).toBe(20 + 3 + 201);
    expect(page.droppedLines).toBeGreaterThanOrEqual(23);
    expect(page.droppedLines + page.lines).toBe(page.totalLines);
    expect(page.droppedBytes).toBeGreaterThan(Buffer.byteLength(before) + episode.length);
  });

  it('follows a resize while a program is on screen: its last screen at the new size', async () => {
    const { log, index } = feed(['\x1b[?1049h\x1b[H', 'x'.repeat(30)]);
    index.resize(20, 6);
    // Column 30 of a 20-column screen is its last column (40 columns before the resize).
    for (const chunk of ['\x1b[H\x1b[2J', '\x1b[1;30HZ', '\x1b[?1049l']) {
      const before = log.totalBytes;
      log.append('stdout', chunk);
      index.add(chunk, before);
    }
    expect((await all(log, index)).text.split('\n')).toEqual([
      '[full-screen program: its last screen, rendered]',
      `${' '.repeat(19)}Z`,
      '[end of full-screen program]',
    ]);
  });

  it('strips a pipe session exactly as before: no rendering without a terminal', async () => {
    const log = new OutputLog({ maxChunkBytes: 4096 });
    const index = new TranscriptIndex();
    const chunk = 'a\r\n\x1b[?1049hvim\x1b[?1049lb\r\n';
    log.append('stdout', chunk);
    index.add(chunk, 0);
    expect((await all(log, index)).text).toBe('a\nvimb');
  });
});
