import { disposeAfterEach, makeWorkspace, waitFor } from '@procmux/test-utils';
import { OutputLog, pageTranscript, TranscriptIndex, transcriptChunks } from '@procmux/transcript';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createProcessSessions, type ProcessSessions } from '../src/index.js';

const workspace = makeWorkspace();
let sessions: ProcessSessions | undefined;

const track = disposeAfterEach<ProcessSessions>();

afterEach(() => {
  sessions = undefined;
});

/** `sized`: each chunk's size in bytes is handed to the index, as a session does. */
function indexed(chunks: string[], sized = false): { log: OutputLog; index: TranscriptIndex } {
  const log = new OutputLog({ maxChunkBytes: 4096 });
  const index = new TranscriptIndex();
  for (const chunk of chunks) {
    const before = log.totalBytes;
    const size = log.append('stdout', chunk);
    index.add(chunk, before, sized ? size : undefined);
  }
  return { log, index };
}

describe('TranscriptIndex', () => {
  it('pages exactly as stripping the whole history does, however the output was chunked', async () => {
    const piece = fc.constantFrom(
      'a',
      'bb',
      '\n',
      '\r\n',
      '\x1b[31m',
      '\x1b[0m',
      '\r',
      'x'.repeat(900),
      // Longer than the stripper's 4,096-unit row: it wraps softly and leaves `pending`.
      'y'.repeat(3000),
      '\x1b[2K',
      // What a plain chunk must not count as text: a line feed inside a title (an OSC string
      // cut across chunks), C1 controls, BEL, backspace, and non-ASCII text.
      '\x1b]0;title',
      '\x07',
      '\x1b',
      '\x9b1m',
      '\x9d2;t\n',
      '\b',
      'é',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.array(piece, { maxLength: 40 }).map((p) => p.join('')),
          { maxLength: 60 },
        ),
        fc.option(fc.nat(120), { nil: undefined }),
        fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
        fc.boolean(),
        async (chunks, offset, limit, sized) => {
          const { log, index } = indexed(chunks, sized);
          const options = {
            ...(offset !== undefined ? { offset } : {}),
            ...(limit !== undefined ? { limit } : {}),
          };
          const whole = await pageTranscript(transcriptChunks(log, undefined, 4096), options);
          expect(await index.page(log, options, 4096)).toEqual(whole);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('places no checkpoint at a line feed inside a string: it ends no line there', async () => {
    // A checkpoint is due (over 16 KiB since the last), and the chunk's last line feed is part
    // of an OSC title (C1-introduced, or begun with ESC in an earlier chunk).
    for (const chunks of [
      ['y'.repeat(20_000), `${'x'.repeat(2_000)}\x9d2;t\nafter`],
      ['y'.repeat(20_000), '\x1b]0;title', `${'x'.repeat(2_000)}\nafter\x07more\n`],
    ]) {
      const { log, index } = indexed(chunks);
      for (const options of [{}, { offset: 0, limit: 5 }, { offset: 1, limit: 2 }]) {
        const whole = await pageTranscript(transcriptChunks(log, undefined, 4096), options);
        expect(await index.page(log, options, 4096)).toEqual(whole);
      }
    }
  });

  it('reads from the nearest checkpoint: a page deep in a big history reads about a page', async () => {
    const lines = Array.from({ length: 200_000 }, (_, i) => `line ${i}`);
    const chunks: string[] = [];
    for (let i = 0; i < lines.length; i += 500) chunks.push(`${lines.slice(i, i + 500).join('\r\n')}\r\n`);
    const { log, index } = indexed(chunks);
    let bytesRead = 0;
    const read = log.read.bind(log);
    log.read = (options) => {
      const page = read(options);
      bytesRead += Buffer.byteLength(page.data);
      return page;
    };
    const page = await index.page(log, { offset: 150_000, limit: 3 }, 4096);
    expect(page.text).toBe('line 150000\nline 150001\nline 150002');
    expect(page.totalLines).toBe(200_000);
    // The history is ~2.3 MB; the page read well under 100 KB of it.
    expect(log.totalBytes).toBeGreaterThan(2_000_000);
    expect(bytesRead).toBeLessThan(100_000);
  });

  it('figure: a page of a 20 MB history, indexed against re-stripping it (no assertion on time)', async () => {
    const chunk = `${Array.from({ length: 1000 }, (_, i) => `\x1b[32mline\x1b[0m ${i} ${'y'.repeat(12)}`).join('\r\n')}\r\n`;
    const chunks = Array.from({ length: 600 }, () => chunk);
    const { log, index } = indexed(chunks);
    let t = performance.now();
    const fast = await index.page(log, { offset: 300_000, limit: 200 }, 4096);
    const indexedMs = performance.now() - t;
    t = performance.now();
    const slow = await pageTranscript(transcriptChunks(log, undefined, 4096), {
      offset: 300_000,
      limit: 200,
    });
    const streamedMs = performance.now() - t;
    expect(fast).toEqual(slow);
    console.info(
      `[transcript-index] ${(log.totalBytes / 1e6).toFixed(1)} MB: indexed page ${indexedMs.toFixed(2)} ms, ` +
        `re-stripped ${streamedMs.toFixed(1)} ms (${(streamedMs / indexedMs).toFixed(0)}x)`,
    );
  });
});

describe('log() of a terminal session pages the whole retained history', () => {
  it('seq 1 100000 in a PTY session: line 1 is 1, not the first line of the scrollback', async () => {
    sessions = track(createProcessSessions({ cwd: workspace }));
    const s = await sessions.start({ command: 'seq', args: ['1', '100000'], pty: true });
    await s.wait({ timeoutMs: 60_000 });
    const head = await s.log({ offset: 0, limit: 3 });
    expect(head).toMatchObject({
      text: '1\n2\n3',
      offset: 0,
      totalLines: 100_000,
      droppedLines: 0,
      droppedBytes: 0,
    });
    const deep = await s.log({ offset: 50_000, limit: 2 });
    expect(deep.text).toBe('50001\n50002');
    const tail = await s.log({ limit: 2 });
    expect(tail.text).toBe('99999\n100000');
  });

  it('says exactly how much the history cap dropped, and pages from the first line it still holds', async () => {
    sessions = track(createProcessSessions({ cwd: workspace, limits: { maxOutputBytes: 200_000 } }));
    const s = await sessions.start({ command: 'seq', args: ['1', '100000'], pty: true });
    await s.wait({ timeoutMs: 60_000 });
    await waitFor(() => s.metadata().truncated, 5_000, 'truncated');
    const page = await s.log({ offset: 0, limit: 2 });
    expect(page.totalLines).toBe(100_000);
    expect(page.droppedLines).toBeGreaterThan(0);
    // Numbered from the first line ever written: line k is k + 1.
    expect(page.offset).toBe(page.droppedLines);
    expect(page.text).toBe(`${page.droppedLines + 1}\n${page.droppedLines + 2}`);
    // Bytes before that line: each of seq's lines is its digits and \r\n.
    let bytes = 0;
    for (let n = 1; n <= page.droppedLines; n += 1) bytes += String(n).length + 2;
    expect(page.droppedBytes).toBe(bytes);
    expect(page.droppedBytes).toBeGreaterThanOrEqual(s.metadata().droppedBytes);
  });

  it('pages the tail a small history cap keeps, numbered as written (a cap below one checkpoint interval)', async () => {
    sessions = track(createProcessSessions({ cwd: workspace, limits: { maxOutputBytes: 300 } }));
    const s = await sessions.start({ command: 'bash', args: ['-c', 'seq 1 2000'] });
    await s.wait({ timeoutMs: 60_000 });
    const page = await s.log({ limit: 1_000 });
    // 300 bytes hold exactly the last 60 lines of seq (5 bytes each from 1000 on).
    const numbers = Array.from({ length: 60 }, (_, i) => String(1_941 + i));
    expect(page).toEqual({
      text: numbers.join('\n'),
      offset: 1_940,
      lines: 60,
      totalLines: 2_000,
      cut: true,
      droppedLines: 1_940,
      droppedBytes: numbersBytes(1_940),
    });
  });
});

/** Bytes seq writes for its first `lines` lines: digits and a line feed each. */
function numbersBytes(lines: number): number {
  let bytes = 0;
  for (let n = 1; n <= lines; n += 1) bytes += String(n).length + 1;
  return bytes;
}
