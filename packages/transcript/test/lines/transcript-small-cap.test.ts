import { describe, expect, it } from 'vitest';
import { OutputLog } from '../../src/log/output-log.js';
import { SessionTranscript } from '../../src/session-transcript.js';
import { expectPagesExact } from './small-cap-oracle.js';

const numbered = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `line ${from + i}\n`).join('');

/** Writes `text` into a transcript whose history cap is `cap`, cut into chunks of the given sizes in turn. */
function written(cap: number, text: string, sizes: number[]): SessionTranscript {
  const t = new SessionTranscript({ log: new OutputLog({ maxRetainedBytes: cap }) });
  for (let at = 0, i = 0; at < text.length; i += 1) {
    const size = sizes[i % sizes.length]!;
    t.append('stdout', text.slice(at, at + size));
    at += size;
  }
  return t;
}

describe('log() under a history cap smaller than a checkpoint interval', () => {
  it('pages the 499 whole lines a 4,991-byte cap keeps of 5,000 numbered lines, numbered as written', async () => {
    // "line 4501\n" ... "line 4999\n": 499 lines of 10 bytes, and the last byte of the line before.
    const t = written(4_991, numbered(0, 5_000), [9]);
    const page = await t.page({ limit: 1_000 }, 1024);
    expect(page).toEqual({
      text: numbered(4_501, 5_000).slice(0, -1),
      offset: 4_501,
      lines: 499,
      totalLines: 5_000,
      cut: true,
      droppedLines: 4_501,
      droppedBytes: t.log.totalBytes - 4_990,
    });
  });

  it('pages a line that starts right at the oldest retained byte (the last byte dropped was a line feed)', async () => {
    for (const sizes of [[9], [4_096], [1]]) {
      const t = written(4_000, numbered(0, 5_000), sizes);
      expect(t.log.firstRetainedStartsLine).toBe(true);
      const page = await t.page({ limit: 1_000 }, 1024);
      expect(page).toMatchObject({ offset: 4_600, lines: 400, droppedLines: 4_600 });
      expect(page.text.split('\n')[0]).toBe('line 4600');
    }
  });

  for (const cap of [64, 300, 1_000, 4_000]) {
    for (const sizes of [[1], [7, 13], [64], [4_096], [1, 200, 3]]) {
      it(`a ${cap}-byte cap, chunks of ${sizes.join('/')} bytes: every page is exact`, async () => {
        const text = numbered(0, 3_000);
        const t = written(cap, text, sizes);
        expect(t.log.firstRetainedOffset).toBeGreaterThan(0);
        await expectPagesExact(t, text, 7);
      });
    }
  }

  it('pages the retained lines past a checkpoint the cap left behind (more than 16 KiB written)', async () => {
    // 40,000 lines: checkpoints every 16 KiB lie below the retained history.
    const text = numbered(0, 40_000);
    const t = written(1_000, text, [512, 3]);
    await expectPagesExact(t, text, 11);
  });

  it('keeps an unfinished last line, and pages nothing when no whole line is retained', async () => {
    const t = written(100, `${numbered(0, 50)}tail without end`, [5]);
    await expectPagesExact(t, `${numbered(0, 50)}tail without end`, 3);
    expect((await t.page({ limit: 1 }, 1024)).text).toBe('tail without end');
    const long = written(100, `${numbered(0, 50)}${'x'.repeat(500)}`, [5]);
    const page = await long.page({}, 1024);
    expect(page).toMatchObject({ text: '', lines: 0, totalLines: 51, droppedLines: 51 });
  });

  it('numbers lines as counted when the retained history holds colour and carriage returns', async () => {
    let text = '';
    for (let i = 0; i < 400; i += 1) text += `\u001b[3${i % 8}m${i}%\r${'row '.repeat(i % 5)}${i}\u001b[0m\n`;
    const t = written(500, text, [11, 2]);
    await expectPagesExact(t, text, 5);
  });
});
