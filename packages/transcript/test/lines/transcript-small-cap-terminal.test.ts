// log() of a terminal session under a small history cap: the first whole line before a
// full-screen episode is numbered back from the episode's start.
import { describe, expect, it } from 'vitest';
import { TranscriptIndex } from '../../src/lines/transcript-index.js';
import { OutputLog } from '../../src/log/output-log.js';

describe('log() of a terminal under a history cap smaller than a checkpoint interval', () => {
  it('on a terminal, counts back from a full-screen episode after the cut: its block and the lines before', async () => {
    const vim =
      '\x1b[?1049h\x1b[22;0;0t\x1b[H\x1b[2Jfirst line\r\nsecond line\r\n~\x1b[6;1H"f" 2L\x1b[2;3H\x1b[?1049l\x1b[23;0;0t';
    const before = Array.from({ length: 30 }, (_, i) => `before ${i}\r\n`).join('');
    // The row "$ vim" is unfinished when the program takes the screen: the episode ends it.
    for (const [prompt, first, startsAt] of [
      ['', 27, 287],
      ['$ vim', 28, 298],
    ] as const) {
      const chunks = [before + prompt, vim, '\r$ echo after\r\nafter\r\n$ '];
      const feed = (maxRetainedBytes: number | undefined) => {
        const log = new OutputLog({ maxChunkBytes: 4096, ...(maxRetainedBytes ? { maxRetainedBytes } : {}) });
        const index = new TranscriptIndex({ terminal: { columns: 40, rows: 6 } });
        for (const chunk of chunks) {
          const at = log.totalBytes;
          log.append('stdout', chunk);
          index.add(chunk, at);
        }
        return index.page(log, { offset: 0, limit: 1_000 }, 4096);
      };
      const whole = (await feed(undefined)).text.split('\n');
      // The cut falls inside "before 26" (or 27): 60 bytes before the episode.
      const page = await feed(vim.length + 60);
      expect(page).toEqual({
        text: whole.slice(first).join('\n'),
        offset: first,
        lines: whole.length - first,
        totalLines: whole.length,
        cut: true,
        droppedLines: first,
        droppedBytes: startsAt,
      });
      expect(page.text).toContain('[full-screen program: its last screen, rendered]\nfirst line');
    }
  });
});
