// What an adapter or a reader that passes a bad value to the log is told: a typed
// ERR_INVALID_OPTION naming the option, the value it got and what is allowed; the edges of
// each allowed range pass.
import { isProcmuxError, type ProcmuxError } from '@procmux/core-types';
import { describe, expect, it } from 'vitest';
import { OutputLog } from '../../src/log/output-log.js';
import type { OutputStream } from '../../src/log/stream-runs.js';

function refusal(run: () => unknown): ProcmuxError {
  try {
    run();
  } catch (error) {
    if (isProcmuxError(error, 'ERR_INVALID_OPTION')) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('the output log refuses bad input with ERR_INVALID_OPTION', () => {
  it('a chunk that is not a string, showing what it got; an empty one adds nothing', () => {
    const log = new OutputLog();
    const error = refusal(() => log.append('stdout', 42 as unknown as string));
    expect(error.message).toBe('chunk must be a string (got 42)');
    expect(error.details).toEqual({ option: 'chunk' });
    expect(log.append('stdout', '')).toBe(0);
    expect(log.totalBytes).toBe(0);
  });

  it('a stream other than stdout or stderr, or none', () => {
    const log = new OutputLog();
    expect(refusal(() => log.append('stdin' as OutputStream, 'a')).message).toContain('got "stdin"');
    expect(refusal(() => log.append(undefined as unknown as OutputStream, 'a')).details).toMatchObject({
      option: 'stream',
    });
    expect(log.append('stderr', 'a')).toBe(1);
  });

  it('bytes of a length no UTF-8 encoding of the chunk has; 1 and 3 bytes a unit pass', () => {
    const log = new OutputLog();
    const short = refusal(() => log.append('stdout', 'ab', new Uint8Array(1)));
    expect(short.message).toBe(
      'bytes must be the chunk\'s UTF-8 encoding: a Uint8Array of 2 to 6 bytes for a chunk of 2 UTF-16 units (got "Uint8Array(1)")',
    );
    expect(short.details).toEqual({ option: 'bytes' });
    expect(refusal(() => log.append('stdout', 'ab', new Uint8Array(7))).message).toContain(
      '(got "Uint8Array(7)")',
    );
    expect(refusal(() => log.append('stdout', 'ab', 'ab' as unknown as Uint8Array)).message).toContain(
      '(got "ab")',
    );
    expect(log.totalBytes).toBe(0);
    // At the edges: as many bytes as units (ASCII), three a unit (a character of the BMP's top).
    expect(log.append('stdout', 'ab', Buffer.from('ab'))).toBe(2);
    expect(log.append('stdout', '€€', Buffer.from('€€'))).toBe(6);
    expect(log.text()).toBe('ab€€');
  });

  it('a cursor outside 0..totalBytes, with the bounds in force; both ends read', () => {
    const log = new OutputLog();
    log.append('stdout', 'abc');
    const error = refusal(() => log.read({ cursor: 4 }));
    expect(error.message).toBe('cursor must be an integer from 0 to 3 (the bytes written so far) (got 4)');
    expect(error.details).toEqual({ option: 'cursor', min: 0, max: 3 });
    for (const cursor of [-1, 1.5, Number.NaN, '1']) {
      expect(refusal(() => log.read({ cursor: cursor as number })).details).toMatchObject({
        option: 'cursor',
      });
    }
    expect(log.read({ cursor: 0 }).data).toBe('abc');
    expect(log.read({ cursor: 3 })).toEqual({ data: '', cursor: 3, eof: true, droppedBytes: 0 });
    expect(log.read({}).data).toBe('abc');
  });
});
