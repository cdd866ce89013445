// Edges of the transcript's lines the mutation run (stryker.config.mjs, part lines) found
// untested: reading a history ends at its end, however it is paged.
import { describe, expect, it } from 'vitest';
import { transcriptChunks } from '../../src/lines/transcript.js';
import { OutputLog } from '../../src/log/output-log.js';

async function collect(chunks: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

describe('transcriptChunks', () => {
  it('reads each page once and stops at the end of the history', async () => {
    const log = new OutputLog();
    log.append('stdout', 'abcdefghij');
    let reads = 0;
    // The real log, read through a counter that fails the test should the reader loop at eof.
    const counted = {
      read: (options: Parameters<OutputLog['read']>[0]) => {
        reads += 1;
        expect(reads).toBeLessThanOrEqual(4);
        return log.read(options);
      },
    } as unknown as OutputLog;
    expect((await collect(transcriptChunks(counted, undefined, 4))).join('')).toBe('abcdefghij');
    expect(reads).toBeGreaterThanOrEqual(3);
  });
});
