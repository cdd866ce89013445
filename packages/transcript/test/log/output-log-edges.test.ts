// OutputLog behaviour a mutation run showed unasserted: the truncated flag around drains and
// evictions, a read at the very end once storage has been reused, the memory window's floor
// and an empty log's tail.
import { describe, expect, it } from 'vitest';
import { OutputLog } from '../../src/log/output-log.js';

describe('OutputLog.truncated', () => {
  it('stays false when output is drained before it reaches the undrained cap', () => {
    const log = new OutputLog({ maxUndrainedBytes: 10 });
    log.append('stdout', 'abcdefgh');
    expect(log.drain()).toEqual({ stdout: 'abcdefgh', stderr: '', droppedBytes: 0 });
    log.append('stdout', 'ijklmnop'); // 16 written, 8 undrained: nothing lost
    expect(log.undrainedBytes).toBe(8);
    expect(log.truncated).toBe(false);
    expect(log.drain()).toEqual({ stdout: 'ijklmnop', stderr: '', droppedBytes: 0 });
  });

  it('turns true once history is discarded, even when every byte was drained in time', () => {
    const log = new OutputLog({ maxRetainedBytes: 10, maxUndrainedBytes: 10 });
    log.append('stdout', 'abcdefgh');
    log.drain();
    log.append('stdout', 'ijklmnop'); // 8 undrained, under the cap; 16 retained, over it
    expect(log.truncated).toBe(true);
    expect(log.firstRetainedOffset).toBe(6);
    expect(log.read({ cursor: 0 })).toEqual({ data: 'ghijklmnop', cursor: 16, eof: true, droppedBytes: 6 });
  });
});

describe('OutputLog.read at the end', () => {
  it('is eof at totalBytes when the newest storage block is a reused one with old bytes past the end', () => {
    // A cap of 8 makes 8-byte blocks; the first, full of 'é' bytes, is discarded and reused
    // for the 'a', so the bytes just past the end are leftovers of 'é' (continuation bytes).
    const log = new OutputLog({ maxRetainedBytes: 8 });
    log.append('stdout', 'éééé');
    log.append('stdout', 'éééé');
    log.append('stdout', 'a');
    expect(log.totalBytes).toBe(17);
    expect(log.read({ cursor: 17 })).toEqual({ data: '', cursor: 17, eof: true, droppedBytes: 0 });
    expect(log.read({ cursor: 10 })).toEqual({ data: 'éééa', cursor: 17, eof: true, droppedBytes: 0 });
    expect(log.tail).toBe('éééa');
  });
});

describe('OutputLog options and an empty log', () => {
  it('refuses a memory window under 64 KiB by its name, and takes 64 KiB', () => {
    const refused = (() => {
      try {
        new OutputLog({ memoryBytes: 64 * 1024 - 1, maxRetainedBytes: 1024 * 1024 });
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toMatchObject({
      code: 'ERR_INVALID_OPTION',
      details: { option: 'memoryBytes', min: 64 * 1024 },
    });
    const log = new OutputLog({ memoryBytes: 64 * 1024, maxRetainedBytes: 1024 * 1024 });
    expect(log.memoryBytesLimit).toBe(64 * 1024);
  });

  it('has an empty tail before anything is written, and the text after', () => {
    const log = new OutputLog();
    expect(log.tail).toBe('');
    log.append('stdout', 'ab');
    expect(log.tail).toBe('ab');
  });
});
