// The line index over a pipe, on the histories a property run meets only by chance: rows long
// enough to wrap and then erased, a title holding a line feed right after the first character,
// a chunk that ends mid-line when a checkpoint is due, non-ASCII lines on a terminal deep past
// a checkpoint. Each is paged as stripping the whole history pages it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripAnsi } from '@procmux/ansi';
import { describe, expect, it, onTestFinished } from 'vitest';
import { pageTranscript, transcriptChunks } from '../../src/lines/transcript.js';
import { TranscriptIndex } from '../../src/lines/transcript-index.js';
import { OutputLog } from '../../src/log/output-log.js';
import { indexed, joined } from './indexed.js';

/** Every window of the pipe's transcript pages as the plain stripped history does. */
async function expectPagedAsStripped(chunks: string[]): Promise<void> {
  for (const sized of [false, true]) {
    const { log, index } = indexed(chunks, sized);
    const plain = () => transcriptChunks(log, undefined, 4096);
    const whole = await pageTranscript(plain(), { offset: 0, limit: 100_000 });
    expect(index.totalLines).toBe(whole.totalLines);
    for (const options of [{}, { offset: 0, limit: 100_000 }, { limit: 1 }, { offset: 1, limit: 2 }]) {
      expect(await index.page(log, options, 4096)).toEqual(await pageTranscript(plain(), options));
    }
  }
}

describe('TranscriptIndex over a pipe, edge histories', () => {
  it('counts a row that wrapped and was then erased as a line, whatever came after it', async () => {
    // The stripper gives out the first 4,096 units of a longer row before its line feed.
    const wrapped = `${'y'.repeat(5000)}\x1b[2K`;
    await expectPagedAsStripped([wrapped]);
    await expectPagedAsStripped([wrapped, '\x1b[0m']);
    await expectPagedAsStripped([`${wrapped}\r`, 'x\x1b[0m\n', 'next\n']);
    // The same row in two chunks with no line feed, plain text each.
    await expectPagedAsStripped(['y'.repeat(3000), 'y'.repeat(3000), '\x1b[2K']);
    const { index } = indexed([wrapped], true);
    expect(index.totalLines).toBe(1);
    // An unfinished row after a chunk's last line feed, erased: a line only if it was given out.
    await expectPagedAsStripped(['a\nabc', '\x1b[2K']);
    await expectPagedAsStripped([`a\n${'y'.repeat(5000)}`, '\x1b[2K']);
    expect(indexed(['a\nabc', '\x1b[2K'], true).index.totalLines).toBe(1);
    expect(indexed([`a\n${'y'.repeat(5000)}`, '\x1b[2K'], true).index.totalLines).toBe(2);
  });

  it('counts no line for a line feed inside a title that starts right after the first character', async () => {
    const chunks = ['x\x1b]0;t\nitle\x07done\n', 'a\x1b]2;b\nc\x07\n', 'last\n'];
    await expectPagedAsStripped(chunks);
    expect(indexed(chunks, true).index.totalLines).toBe(3);
  });

  it('counts the unfinished end of a chunk that came when a checkpoint was due', async () => {
    const chunks = [`${'line\n'.repeat(4000)}tail`, ' more\n', `${'line\n'.repeat(4000)}end`];
    await expectPagedAsStripped(chunks);
    expect(indexed(chunks, true).index.totalLines).toBe(8002);
  });

  it('streams a capped history from its first retained byte, the cut line included', async () => {
    const chunks = Array.from({ length: 50 }, (_, i) => `line ${i} \x1b[1mbold\x1b[0m\n`);
    const { log, index } = indexed(chunks, true, 300);
    expect(log.firstRetainedStartsLine).toBe(false);
    const streamed = await joined(index.chunks(log, 64));
    expect(streamed).toBe(stripAnsi(log.text()));
    expect(streamed.startsWith('line')).toBe(false);
  });

  it('hands out line starts about every 16 KiB of a big history, each where its line begins', async () => {
    const chunks = Array.from({ length: 60 }, (_, i) =>
      Array.from({ length: 100 }, (_, j) => `row ${i * 100 + j}\n`).join(''),
    );
    const { log, index } = indexed(chunks, true);
    const starts = (await index.lineStarts(log))!;
    expect(starts.length).toBeGreaterThan(2);
    const history = Buffer.from(log.text(), 'utf8');
    for (const start of starts) {
      expect(history.subarray(start.offset).toString('utf8').split('\n', 1)[0]).toBe(`row ${start.line}`);
    }
  });

  // An excerpt counts such a stretch without reading it as text: marked only when every byte
  // there is one of those, and whenever it is (a chunk's tail after its line start included).
  it('marks the stretches between line starts that hold only printable ASCII, tabs and line feeds', async () => {
    // Each chunk ends mid-row with a plain tail or one holding a bell, a carriage return, a
    // non-ASCII letter or an escape sequence: what follows a chunk's checkpoint.
    const tails = ['tail', 'tail\x07', 'tab\t', 'tail\r', 'tail', 'tailé', 'tail', 'tail\x1b[0m'];
    // About 20 KiB each: a line start is recorded in most of them.
    const chunks = Array.from({ length: 120 }, (_, i) => {
      const rows = Array.from({ length: 1_800 }, (_, j) => `row ${i * 1_800 + j}\n`).join('');
      return `${rows}${i % 9 === 4 ? 'split by a bell\x07 ' : ''}${tails[i % tails.length]}`;
    });
    // Also with a history cap that has dropped most of it: the marks of what is kept still hold.
    for (const [sized, cap] of [
      [false, undefined],
      [true, undefined],
      [true, 300_000],
    ] as const) {
      const { log, index } = indexed(chunks, sized, cap);
      const starts = (await index.lineStarts(log))!;
      const floor = log.firstRetainedOffset;
      const history = Buffer.from(log.text(), 'utf8');
      let marked = 0;
      for (let k = 1; k < starts.length; k++) {
        const at = (offset: number) => offset - floor;
        const stretch = history.subarray(at(starts[k - 1]!.offset), at(starts[k]!.offset)).toString('utf8');
        const plain = /^[\t\n\x20-\x7e]*$/.test(stretch);
        // The first kept stretch was marked with bytes the cap has dropped since: it may say no.
        if (k === 1 && cap !== undefined) expect(plain || starts[k]!.plainBefore !== true).toBe(true);
        else expect(starts[k]!.plainBefore === true, stretch.slice(-20)).toBe(plain);
        if (starts[k]!.plainBefore) marked += 1;
      }
      // Not every stretch holds a dirty tail.
      expect(marked).toBeGreaterThan(starts.length / 4);
    }
  });
});

describe('TranscriptIndex over a spilled pipe', () => {
  it('pages from a line start the cap cut exactly at, though the byte before it went to the spill file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'procmux-index-spill-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const log = new OutputLog({ maxRetainedBytes: 100_000, memoryBytes: 64 * 1024, spillDir: dir });
    onTestFinished(async () => {
      log.close();
      await log.flushed();
    });
    const index = new TranscriptIndex();
    // Lines of 20 bytes in chunks of 1,000: checkpoints fall on chunk ends (17,000, 34,000...),
    // and the cut of 117,000 bytes written is 17,000: the first line start checkpointed.
    for (let n = 0; log.totalBytes < 117_000; n += 50) {
      const chunk = Array.from({ length: 50 }, (_, i) => `l${String(n + i).padStart(18, '0')}\n`).join('');
      const before = log.totalBytes;
      index.add(chunk, before, log.append('stdout', chunk));
    }
    expect(log.firstRetainedOffset).toBe(17_000);
    expect(log.firstRetainedStartsLine).toBe(false);
    const page = await index.page(log, { offset: 0, limit: 2 }, 4096);
    expect(page).toMatchObject({
      text: `l${String(850).padStart(18, '0')}\nl${String(851).padStart(18, '0')}`,
      offset: 850,
      droppedLines: 850,
      droppedBytes: 17_000,
    });
  });
});

describe('TranscriptIndex on a terminal, without full-screen programs', () => {
  it('pages non-ASCII lines deep past a checkpoint, numbered as written', async () => {
    const log = new OutputLog({ maxChunkBytes: 4096 });
    const index = new TranscriptIndex({ terminal: { columns: 80, rows: 24 } });
    for (let i = 0; i < 3000; i += 100) {
      const chunk = Array.from({ length: 100 }, (_, j) => `ünïcödé líne ${i + j}\r\n`).join('');
      const before = log.totalBytes;
      log.append('stdout', chunk);
      index.add(chunk, before);
    }
    const page = await index.page(log, { offset: 2500, limit: 2 }, 4096);
    expect(page).toMatchObject({
      text: 'ünïcödé líne 2500\nünïcödé líne 2501',
      offset: 2500,
      totalLines: 3000,
    });
    expect(await index.lineStarts(log)).toBeUndefined();
  });
});
