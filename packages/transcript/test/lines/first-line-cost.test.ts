// Finding the first whole line of a capped history reads the retained bytes once, not on every
// log() call: a model pages a session many times while it holds still.
import { describe, expect, it } from 'vitest';
import { TranscriptIndex } from '../../src/lines/transcript-index.js';
import { OutputLog } from '../../src/log/output-log.js';

/** A log and its index, with the bytes each kind of read took counted. */
function counted(maxRetainedBytes: number) {
  const log = new OutputLog({ maxRetainedBytes, maxChunkBytes: 4096 });
  const index = new TranscriptIndex();
  const reads = { paged: 0, scanned: 0 };
  const read = log.read.bind(log);
  log.read = (options) => {
    const page = read(options);
    reads.paged += Buffer.byteLength(page.data);
    return page;
  };
  const between = log.bytesBetween.bind(log);
  log.bytesBetween = (from, to, into) => {
    reads.scanned += to - from;
    return between(from, to, into);
  };
  const append = (chunk: string) => {
    const at = log.totalBytes;
    log.append('stdout', chunk);
    index.add(chunk, at);
  };
  return { log, index, reads, append };
}

describe('the first whole line of a capped history', () => {
  it('is counted once: a second page reads about a page, though no checkpoint lies in the history', async () => {
    const { log, index, reads, append } = counted(64 * 1024);
    // Each chunk ends in a colour sequence after its last line feed: no checkpoint is ever placed.
    for (let i = 0; i < 300; i += 1) {
      append(`${Array.from({ length: 50 }, (_, j) => `line ${i * 50 + j}`).join('\n')}\n\x1b[0m`);
    }
    const first = await index.page(log, { offset: 0, limit: 5 }, 4096);
    expect(first.text.split('\n')[0]).toBe(`line ${first.offset}`);
    expect(reads.paged).toBeGreaterThan(60_000);
    reads.paged = 0;
    const again = await index.page(log, { offset: 0, limit: 5 }, 4096);
    expect(again).toEqual(first);
    expect(reads.paged).toBeLessThanOrEqual(4096);
  });

  it('is sought once in a history of one huge line: asked again, the same bytes are not scanned again', async () => {
    const { log, index, reads, append } = counted(1024 * 1024);
    append('before\n');
    for (let i = 0; i < 12; i += 1) append('x'.repeat(100_000));
    const page = await index.page(log, {}, 4096);
    expect(page).toMatchObject({ text: '', lines: 0, totalLines: 2, droppedLines: 2 });
    expect(reads.scanned).toBeGreaterThan(1_000_000);
    reads.scanned = 0;
    expect(await index.page(log, {}, 4096)).toEqual(page);
    expect(reads.scanned).toBe(0);
    // The huge line ends: the lines after it are pageable, numbered on.
    append('\nafter 1\nafter 2\n');
    expect(await index.page(log, {}, 4096)).toMatchObject({
      text: 'after 1\nafter 2',
      offset: 2,
      totalLines: 4,
    });
  });
});
