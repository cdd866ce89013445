// Whether a line starts at the oldest retained byte: what log() needs to page the first line a
// cap left whole. Known from the last byte dropped while memory holds it; never read back from
// the spill file for this.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { testTmpdir } from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { OutputLog } from '../../src/log/output-log.js';
import { SessionTranscript } from '../../src/session-transcript.js';

const dir = mkdtempSync(join(testTmpdir(), 'procmux-starts-line-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('OutputLog.firstRetainedStartsLine', () => {
  it('is true with nothing dropped, and after a cut right past a line feed; false after a cut inside a line', () => {
    const log = new OutputLog({ maxRetainedBytes: 8 });
    expect(log.firstRetainedStartsLine).toBe(true);
    log.append('stdout', 'abc\n');
    log.append('stdout', 'defg');
    expect(log.firstRetainedStartsLine).toBe(true);
    log.append('stdout', 'h');
    expect(log.text()).toBe('bc\ndefgh');
    expect(log.firstRetainedOffset).toBe(1);
    expect(log.firstRetainedStartsLine).toBe(false);
    log.append('stdout', '\nij');
    // Cut at 4: the byte dropped last (offset 3) is the line feed.
    expect(log.firstRetainedOffset).toBe(4);
    expect(log.firstRetainedStartsLine).toBe(true);
    log.append('stdout', 'k');
    expect(log.firstRetainedStartsLine).toBe(false);
  });

  it('of a chunk larger than the whole cap: from the byte before its retained end, which is not kept', () => {
    const log = new OutputLog({ maxRetainedBytes: 6 });
    log.append('stdout', 'x');
    log.append('stdout', 'one\ntwo\nthree\n');
    expect(log.text()).toBe('three\n');
    expect(log.retainedBytes).toBe(6);
    expect(log.firstRetainedOffset).toBe(9);
    expect(log.firstRetainedStartsLine).toBe(true);
    log.append('stdout', 'one\ntwo\nthree\nfour');
    expect(log.text()).toBe('e\nfour');
    expect(log.firstRetainedStartsLine).toBe(false);
    // Bytes given: the same cut; one inside a character moves past it, after no line feed.
    log.append('stdout', 'ab\n€€', Buffer.from('ab\n€€'));
    expect(log.text()).toBe('€€');
    expect(log.firstRetainedStartsLine).toBe(true);
    log.append('stdout', '\n€€x', Buffer.from('\n€€x'));
    expect(log.text()).toBe('€x');
    expect(log.firstRetainedStartsLine).toBe(false);
  });

  it('is false once the byte before the cut went to the spill file: log() then pages from the next line', async () => {
    // Lines of 11 bytes and a cap of whole lines: every cut is at a line start.
    const log = new OutputLog({ maxRetainedBytes: 11 * 24_000, memoryBytes: 64 * 1024, spillDir: dir });
    const t = new SessionTranscript({ log });
    for (let i = 0; i < 40_000; i += 1) t.append('stdout', `line ${String(i).padStart(5, '0')}\n`);
    await log.flushed();
    expect(log.diskBytes).toBeGreaterThan(0);
    // The cut is at a line start, but the file is not read to know it.
    const cutAt = log.read({ cursor: log.firstRetainedOffset, maxBytes: 16 }).data;
    expect(cutAt).toMatch(/^line \d+\n/);
    expect(log.firstRetainedStartsLine).toBe(false);
    const page = await t.page({ offset: 0, limit: 2 }, 4096);
    const first = Number(/^line (\d+)/.exec(cutAt)![1]);
    expect(first).toBe(16_000);
    expect(page).toMatchObject({ offset: 16_001, text: 'line 16001\nline 16002', droppedLines: 16_001 });
    log.close();
    await log.flushed();
  });
});
