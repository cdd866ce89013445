import {
  OUTPUT_CHUNK_BYTES_LIMIT,
  OUTPUT_TOTAL_BYTES_LIMIT,
  TAIL_CHARS,
  UNDRAINED_BYTES_LIMIT,
} from '@procmux/core-types';
import { invalidOptionMessage } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { OutputLog, type OutputLogOptions } from '../../src/log/output-log.js';

describe('OutputLog options', () => {
  it('defaults to 64 MiB retained, 30,000 undrained and 50 KiB pages', () => {
    const log = new OutputLog();
    expect(log.maxRetainedBytes).toBe(OUTPUT_TOTAL_BYTES_LIMIT.default);
    expect(log.maxUndrainedBytes).toBe(UNDRAINED_BYTES_LIMIT.default);
    expect(log.maxChunkBytes).toBe(OUTPUT_CHUNK_BYTES_LIMIT.default);
    expect(log.undrainedCap).toBe(30_000);
  });

  it('accepts each hard cap exactly', () => {
    const log = new OutputLog({
      maxRetainedBytes: OUTPUT_TOTAL_BYTES_LIMIT.hard,
      maxUndrainedBytes: UNDRAINED_BYTES_LIMIT.hard,
      maxChunkBytes: OUTPUT_CHUNK_BYTES_LIMIT.hard,
    });
    expect(log.maxRetainedBytes).toBe(1024 ** 3);
    expect(log.maxUndrainedBytes).toBe(1024 ** 3);
    expect(log.maxChunkBytes).toBe(1024 ** 2);
  });

  it.each<[keyof OutputLogOptions, unknown, string]>([
    ['maxRetainedBytes', 0, 'from 1 to 1073741824 (got 0)'],
    ['maxRetainedBytes', 1024 ** 3 + 1, 'got 1073741825'],
    ['maxRetainedBytes', 1.5, 'got 1.5'],
    ['maxUndrainedBytes', 0, 'from 1 to 1073741824 (got 0)'],
    ['maxUndrainedBytes', '30000', 'got "30000"'],
    ['maxUndrainedBytes', Number.NaN, 'got NaN'],
    ['maxChunkBytes', 3, 'from 4 to 1048576 (got 3)'],
    ['maxChunkBytes', 1024 ** 2 + 1, 'got 1048577'],
  ])('rejects %s = %s, never clamping it', (name, value, says) => {
    const message = invalidOptionMessage(() => new OutputLog({ [name]: value } as OutputLogOptions));
    expect(message).toContain(name);
    expect(message).toContain(says);
  });
});

describe('OutputLog retained history cap', () => {
  it('drops the oldest history first and counts everything written', () => {
    const log = new OutputLog({ maxRetainedBytes: 35 });
    for (let i = 0; i < 10; i++) log.append('stdout', `${i}`.repeat(10));
    expect(log.totalBytes).toBe(100);
    expect(log.retainedBytes).toBe(35);
    expect(log.firstRetainedOffset).toBe(65);
    expect(log.truncated).toBe(true);
    expect(log.text()).toBe(`${'6'.repeat(5)}${'7'.repeat(10)}${'8'.repeat(10)}${'9'.repeat(10)}`);
  });

  it('is not truncated while everything fits', () => {
    const log = new OutputLog({ maxRetainedBytes: 10, maxUndrainedBytes: 10 });
    log.append('stdout', '0123456789');
    expect(log.truncated).toBe(false);
    expect(log.retainedBytes).toBe(10);
  });

  it('never keeps half a character: the cut rounds up to the next boundary', () => {
    const log = new OutputLog({ maxRetainedBytes: 6 });
    log.append('stdout', 'a😀😀'); // 9 bytes: dropping 3 lands inside the first emoji
    expect(log.text()).toBe('😀');
    expect(log.retainedBytes).toBe(4);
    expect(log.firstRetainedOffset).toBe(5);
  });

  it('keeps only the retainable end of a single chunk larger than the cap', () => {
    const log = new OutputLog({ maxRetainedBytes: 8 });
    log.append('stderr', 'old');
    log.append('stdout', `${'x'.repeat(100)}€é😀`);
    expect(log.totalBytes).toBe(3 + 100 + 9);
    expect(log.text()).toBe('é😀');
    expect(log.read({ cursor: 0 })).toEqual({ data: 'é😀', cursor: 112, eof: true, droppedBytes: 106 });
  });

  it('retains nothing when the cap is smaller than the last character', () => {
    const log = new OutputLog({ maxRetainedBytes: 3 });
    log.append('stdout', 'ab😀');
    expect(log.retainedBytes).toBe(0);
    expect(log.text()).toBe('');
    expect(log.read({ cursor: 0 })).toEqual({ data: '', cursor: 6, eof: true, droppedBytes: 6 });
    expect(log.tail).toBe('');
  });

  it('keeps addressing bytes correctly after thousands of evictions', () => {
    const log = new OutputLog({ maxRetainedBytes: 50, maxChunkBytes: 64 });
    for (let i = 0; i < 5000; i++) log.append(i % 2 === 0 ? 'stdout' : 'stderr', `${i % 10}é`);
    expect(log.totalBytes).toBe(15_000);
    const page = log.read({ cursor: 0, maxBytes: 64 });
    expect(page.droppedBytes).toBe(14_950);
    // Byte 14,950 is the 'é' of chunk 4983; chunks 4984..4999 follow whole.
    const rest = Array.from({ length: 16 }, (_, j) => `${(4984 + j) % 10}é`).join('');
    expect(page.data).toBe(`é${rest}`);
    expect(log.retainedBytes).toBe(50);
  });
});

describe('OutputLog.read', () => {
  it('pages history from a cursor with both streams in arrival order', () => {
    const log = new OutputLog();
    log.append('stdout', 'one ');
    log.append('stderr', 'two ');
    log.append('stdout', 'three');
    expect(log.read({ cursor: 0, maxBytes: 6 })).toEqual({
      data: 'one tw',
      cursor: 6,
      eof: false,
      droppedBytes: 0,
    });
    expect(log.read({ cursor: 6 })).toEqual({ data: 'o three', cursor: 13, eof: true, droppedBytes: 0 });
  });

  it('defaults to cursor 0 and maxChunkBytes', () => {
    const log = new OutputLog({ maxChunkBytes: 4 });
    log.append('stdout', 'abcdef');
    expect(log.read()).toEqual({ data: 'abcd', cursor: 4, eof: false, droppedBytes: 0 });
  });

  it('reports eof with no data at the end, and moves on once more arrives', () => {
    const log = new OutputLog();
    expect(log.read({ cursor: 0 })).toEqual({ data: '', cursor: 0, eof: true, droppedBytes: 0 });
    log.append('stdout', 'hi');
    expect(log.read({ cursor: 2 })).toEqual({ data: '', cursor: 2, eof: true, droppedBytes: 0 });
    log.append('stdout', '!');
    expect(log.read({ cursor: 2 })).toEqual({ data: '!', cursor: 3, eof: true, droppedBytes: 0 });
  });

  it('reads a cursor in discarded history from the oldest retained byte and says how much was lost', () => {
    const log = new OutputLog({ maxRetainedBytes: 10 });
    log.append('stdout', '0123456789');
    log.append('stdout', 'abcdefghij');
    expect(log.read({ cursor: 3, maxBytes: 4 })).toEqual({
      data: 'abcd',
      cursor: 14,
      eof: false,
      droppedBytes: 7,
    });
    expect(log.read({ cursor: 0 })).toEqual({ data: 'abcdefghij', cursor: 20, eof: true, droppedBytes: 10 });
  });

  it('moves a cursor that points inside a character to the next character', () => {
    const log = new OutputLog();
    log.append('stdout', 'a😀b');
    for (const cursor of [2, 3, 4]) {
      expect(log.read({ cursor })).toEqual({ data: 'b', cursor: 6, eof: true, droppedBytes: 0 });
    }
    expect(log.read({ cursor: 1 }).data).toBe('😀b');
  });

  it('cuts a page at the last whole character that fits', () => {
    const log = new OutputLog();
    log.append('stdout', 'é€😀');
    expect(log.read({ maxBytes: 4 })).toEqual({ data: 'é', cursor: 2, eof: false, droppedBytes: 0 });
    expect(log.read({ cursor: 2, maxBytes: 4 })).toEqual({
      data: '€',
      cursor: 5,
      eof: false,
      droppedBytes: 0,
    });
    expect(log.read({ cursor: 5, maxBytes: 4 })).toEqual({
      data: '😀',
      cursor: 9,
      eof: true,
      droppedBytes: 0,
    });
  });

  it('stops a page before a later chunk whose first character does not fit', () => {
    const log = new OutputLog();
    log.append('stdout', 'ab');
    log.append('stdout', '😀');
    expect(log.read({ maxBytes: 5 })).toEqual({ data: 'ab', cursor: 2, eof: false, droppedBytes: 0 });
  });

  it('filters by stream while the cursor moves over the other stream', () => {
    const log = new OutputLog();
    log.append('stdout', 'out1 ');
    log.append('stderr', 'err1 ');
    log.append('stdout', 'out2 ');
    log.append('stderr', 'err2');
    expect(log.read({ stream: 'stderr' })).toEqual({
      data: 'err1 err2',
      cursor: 19,
      eof: true,
      droppedBytes: 0,
    });
    const first = log.read({ stream: 'stdout', maxBytes: 5 });
    expect(first).toEqual({ data: 'out1 ', cursor: 10, eof: false, droppedBytes: 0 });
    expect(log.read({ stream: 'stdout', cursor: first.cursor })).toEqual({
      data: 'out2 ',
      cursor: 19,
      eof: true,
      droppedBytes: 0,
    });
  });

  it.each<[string, object, string]>([
    ['a cursor beyond what was written', { cursor: 4 }, 'cursor must be an integer from 0 to 3'],
    ['a negative cursor', { cursor: -1 }, 'got -1'],
    ['a fractional cursor', { cursor: 1.5 }, 'got 1.5'],
    ['a string cursor', { cursor: '1' }, 'got "1"'],
    ['maxBytes above maxChunkBytes', { maxBytes: 17 }, 'maxBytes must be an integer from 4 to 16 (got 17)'],
    ['maxBytes below one character', { maxBytes: 3 }, 'from 4 to 16 (got 3)'],
    ['an unknown stream', { stream: 'stdin' }, `stream must be one of 'stdout', 'stderr' (got "stdin")`],
  ])('rejects %s with ERR_INVALID_OPTION', (_what, options, says) => {
    const log = new OutputLog({ maxChunkBytes: 16 });
    log.append('stdout', 'abc');
    expect(invalidOptionMessage(() => log.read(options))).toContain(says);
  });
});

describe('OutputLog.drain', () => {
  it('returns what is new since the previous drain, per stream', () => {
    const log = new OutputLog();
    log.append('stdout', 'a1 ');
    log.append('stderr', 'e1 ');
    log.append('stdout', 'a2');
    expect(log.undrainedBytes).toBe(8);
    expect(log.drain()).toEqual({ stdout: 'a1 a2', stderr: 'e1 ', droppedBytes: 0 });
    expect(log.drain()).toEqual({ stdout: '', stderr: '', droppedBytes: 0 });
    log.append('stderr', 'e2');
    expect(log.drain()).toEqual({ stdout: '', stderr: 'e2', droppedBytes: 0 });
    expect(log.undrainedBytes).toBe(0);
  });

  it('does not consume history: read() still pages drained output', () => {
    const log = new OutputLog();
    log.append('stdout', 'kept');
    log.drain();
    expect(log.read().data).toBe('kept');
  });

  it('drops the oldest undrained output beyond the cap and says how much', () => {
    const log = new OutputLog({ maxUndrainedBytes: 10 });
    log.append('stdout', 'AAAAAAAA');
    log.append('stderr', 'BBBBBBBB');
    expect(log.truncated).toBe(true);
    expect(log.drain()).toEqual({ stdout: 'AA', stderr: 'BBBBBBBB', droppedBytes: 6 });
    // History itself was not capped.
    expect(log.retainedBytes).toBe(16);
  });

  it('caps undrained output at min(maxUndrainedBytes, maxRetainedBytes)', () => {
    const log = new OutputLog({ maxUndrainedBytes: 100, maxRetainedBytes: 12 });
    expect(log.undrainedCap).toBe(12);
    for (let i = 0; i < 5; i++) log.append('stdout', `line-${i}\n`);
    expect(log.drain()).toEqual({ stdout: 'ne-3\nline-4\n', stderr: '', droppedBytes: 23 });
  });

  it('uses maxUndrainedBytes when it is the smaller cap', () => {
    const log = new OutputLog({ maxUndrainedBytes: 5, maxRetainedBytes: 12 });
    expect(log.undrainedCap).toBe(5);
    log.append('stdout', '0123456789');
    expect(log.drain()).toEqual({ stdout: '56789', stderr: '', droppedBytes: 5 });
  });

  it('never splits a character when dropping', () => {
    const log = new OutputLog({ maxUndrainedBytes: 5 });
    log.append('stdout', '😀😀'); // 8 bytes; the cap starts inside the first emoji
    expect(log.drain()).toEqual({ stdout: '😀', stderr: '', droppedBytes: 4 });
  });

  it('counts only bytes written since the previous drain as dropped', () => {
    const log = new OutputLog({ maxUndrainedBytes: 4 });
    log.append('stdout', 'abc');
    expect(log.drain()).toEqual({ stdout: 'abc', stderr: '', droppedBytes: 0 });
    log.append('stdout', 'defgh');
    expect(log.drain()).toEqual({ stdout: 'efgh', stderr: '', droppedBytes: 1 });
  });

  it('drains from the middle of a partly evicted head chunk', () => {
    const log = new OutputLog({ maxRetainedBytes: 7, maxUndrainedBytes: 7 });
    log.append('stdout', 'ééééé'); // 10 bytes; 3 evicted, the cut rounds up to byte 4
    expect(log.drain()).toEqual({ stdout: 'ééé', stderr: '', droppedBytes: 4 });
  });
});

describe('OutputLog.tail', () => {
  it('is the last 2,000 characters, counting an emoji as one', () => {
    const log = new OutputLog();
    log.append('stdout', 'x'.repeat(3000));
    log.append('stderr', '😀'.repeat(1500));
    expect(log.tail).toBe(`${'x'.repeat(TAIL_CHARS - 1500)}${'😀'.repeat(1500)}`);
    expect([...log.tail]).toHaveLength(TAIL_CHARS);
  });

  it('follows new output', () => {
    const log = new OutputLog();
    log.append('stdout', 'first');
    expect(log.tail).toBe('first');
    log.append('stdout', ' second');
    expect(log.tail).toBe('first second');
  });

  it('comes from retained history only', () => {
    const log = new OutputLog({ maxRetainedBytes: 5 });
    log.append('stdout', 'abcdefgh');
    expect(log.tail).toBe('defgh');
  });
});

describe('OutputLog.append', () => {
  it('stores a lone surrogate as U+FFFD, counted as the 3 bytes UTF-8 gives it', () => {
    const log = new OutputLog();
    log.append('stdout', 'a\ud83d');
    expect(log.totalBytes).toBe(4);
    expect(log.read()).toEqual({ data: 'a\ufffd', cursor: 4, eof: true, droppedBytes: 0 });
  });

  it('ignores an empty chunk', () => {
    const log = new OutputLog();
    log.append('stdout', '');
    expect(log.totalBytes).toBe(0);
    expect(log.drain()).toEqual({ stdout: '', stderr: '', droppedBytes: 0 });
  });

  it('rejects an unknown stream and a chunk that is not a string', () => {
    const log = new OutputLog();
    expect(invalidOptionMessage(() => log.append('stdin' as 'stdout', 'x'))).toContain(
      `stream must be one of 'stdout', 'stderr'`,
    );
    expect(invalidOptionMessage(() => log.append('stdout', Buffer.from('x') as unknown as string))).toContain(
      'chunk must be a string',
    );
    expect(log.totalBytes).toBe(0);
  });
});

describe('OutputLog under a flood', () => {
  it('keeps the last maxRetainedBytes of a long mixed stream exactly, across storage blocks', () => {
    const log = new OutputLog({ maxRetainedBytes: 3 * 1024 * 1024, maxChunkBytes: 1024 * 1024 });
    const chunks: string[] = [];
    for (let i = 0; i < 200; i++) {
      // 40-70 KiB chunks, some ASCII only, some with 2-, 3- and 4-byte characters.
      const unit = i % 3 === 0 ? `line ${i} é€😀\n` : `line ${i} plain ascii text\n`;
      chunks.push(unit.repeat(Math.ceil((40_000 + ((i * 7919) % 30_000)) / unit.length)));
    }
    for (const chunk of chunks) log.append('stdout', chunk);
    const all = Buffer.from(chunks.join(''));
    expect(log.totalBytes).toBe(all.length);
    let first = all.length - 3 * 1024 * 1024;
    while ((all[first]! & 0xc0) === 0x80) first++;
    expect(log.firstRetainedOffset).toBe(first);
    expect(log.text()).toBe(all.subarray(first).toString());
    // Pages of 1 MiB cross block boundaries and reassemble the same history.
    let cursor = first;
    let paged = '';
    for (;;) {
      const page = log.read({ cursor, maxBytes: 1024 * 1024 });
      paged += page.data;
      if (page.eof) break;
      cursor = page.cursor;
    }
    expect(paged).toBe(log.text());
    expect(log.tail).toBe([...log.text()].slice(-TAIL_CHARS).join(''));
  });

  it('drains each chunk as it arrives, dropping the front of one longer than the undrained cap', () => {
    const log = new OutputLog({ maxUndrainedBytes: 10 });
    log.append('stdout', 'short');
    expect(log.drain()).toEqual({ stdout: 'short', stderr: '', droppedBytes: 0 });
    log.append('stderr', 'abcdefghijklmnop');
    expect(log.drain()).toEqual({ stdout: '', stderr: 'ghijklmnop', droppedBytes: 6 });
    log.append('stdout', 'ééééééé'); // 14 bytes: the cut at byte 4 is a boundary
    expect(log.drain()).toEqual({ stdout: 'ééééé', stderr: '', droppedBytes: 4 });
    log.append('stdout', 'a\ud83d');
    expect(log.drain()).toEqual({ stdout: 'a\ufffd', stderr: '', droppedBytes: 0 });
  });
});
