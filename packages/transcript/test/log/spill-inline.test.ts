// A spilled block is written at once while such writes are quick, and through the thread
// pool's queue from the first slow one on; a block the file refuses stays the caller's.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { testTmpdir } from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import {
  nodeSpillFileSystem,
  SLOW_WRITE_MS,
  SpillFile,
  type SpillFileSystem,
} from '../../src/log/spill-file.js';

const dir = mkdtempSync(join(testTmpdir(), 'procmux-spill-inline-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** node:fs, counting the calls of each kind of write; `slow` ms pass on `clock` in each synchronous one. */
function countingDisk(clock = { now: 0 }, slow = 0) {
  const calls = { sync: 0, async: 0 };
  const fs: SpillFileSystem = {
    ...nodeSpillFileSystem,
    write(fd, bytes, position) {
      calls.sync += 1;
      clock.now += slow;
      return nodeSpillFileSystem.write(fd, bytes, position);
    },
    writeAsync(fd, buffers, position, done) {
      calls.async += 1;
      nodeSpillFileSystem.writeAsync(fd, buffers, position, done);
    },
  };
  return { fs, calls };
}

function file(fs: SpillFileSystem, options: { now?: () => number; queueBytes?: number } = {}) {
  const released: Buffer[] = [];
  const failures: Error[] = [];
  const spill = new SpillFile({
    dir,
    capacity: 64,
    queueBytes: options.queueBytes ?? 1024,
    fs,
    release: (bytes) => released.push(bytes),
    onFailure: (error) => failures.push(error),
    ...(options.now ? { now: options.now } : {}),
  });
  return { spill, released, failures };
}

const block = (letter: string) => Buffer.from(letter.repeat(16));

describe('spill writes', () => {
  it('writes each block at once while writes are quick: nothing waits in memory, all reads back from the file', async () => {
    // A clock that stands still: a write the machine's load made slow must not count here.
    const clock = { now: 0 };
    const { fs, calls } = countingDisk(clock);
    const { spill, released } = file(fs, { now: () => clock.now });
    for (const [i, letter] of ['A', 'B', 'C', 'D', 'E', 'F'].entries()) {
      expect(spill.enqueue(i * 16, block(letter))).toBe(true);
      expect(spill.queuedBytes).toBe(0);
    }
    expect(calls).toEqual({ sync: 6, async: 0 });
    expect(released).toHaveLength(6);
    // Past the 64-byte ring's first lap: the newest 64 bytes are there.
    expect(spill.read(32, 96).toString()).toBe(
      'C'.repeat(16) + 'D'.repeat(16) + 'E'.repeat(16) + 'F'.repeat(16),
    );
    spill.close();
    await spill.idle();
  });

  it('sends every block after a slow write to the thread pool, read from memory until written', async () => {
    const clock = { now: 0 };
    const { fs, calls } = countingDisk(clock, SLOW_WRITE_MS);
    const { spill, released } = file(fs, { now: () => clock.now });
    expect(spill.enqueue(0, block('A'))).toBe(true);
    expect(calls).toEqual({ sync: 1, async: 0 });
    expect(spill.enqueue(16, block('B'))).toBe(true);
    expect(spill.enqueue(32, block('C'))).toBe(true);
    expect(calls).toEqual({ sync: 1, async: 1 });
    expect(spill.queuedBytes).toBe(32);
    expect(spill.read(0, 48).toString()).toBe('A'.repeat(16) + 'B'.repeat(16) + 'C'.repeat(16));
    await spill.idle();
    expect(spill.queuedBytes).toBe(0);
    expect(released).toHaveLength(3);
    expect(spill.read(0, 48).toString()).toBe('A'.repeat(16) + 'B'.repeat(16) + 'C'.repeat(16));
    spill.close();
  });

  it('keeps writing at once after a quick write: only a slow one changes the path', async () => {
    const clock = { now: 0 };
    const { fs, calls } = countingDisk(clock, SLOW_WRITE_MS - 1);
    const { spill } = file(fs, { now: () => clock.now });
    for (let i = 0; i < 4; i += 1) spill.enqueue(i * 16, block('Q'));
    expect(calls).toEqual({ sync: 4, async: 0 });
    spill.close();
  });

  it('leaves a block the disk refused with the caller, written at once or from a full queue', async () => {
    const enospc = () =>
      Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const fullDisk = (inline: boolean): SpillFileSystem => ({
      ...nodeSpillFileSystem,
      inline,
      write() {
        throw enospc();
      },
      // Never completes: the queue stays full, so the next block is written synchronously.
      writeAsync() {},
    });
    const atOnce = file(fullDisk(true));
    expect(atOnce.spill.enqueue(0, block('A'))).toBe(false);
    expect(atOnce.released).toEqual([]);
    expect(atOnce.failures.map((e) => e.message)).toEqual(['ENOSPC: no space left on device, write']);

    const queued = file(fullDisk(false), { queueBytes: 16 });
    expect(queued.spill.enqueue(0, block('A'))).toBe(true);
    // A hand-back here as well as the caller's own recycling gave one buffer to two blocks.
    expect(queued.spill.enqueue(16, block('B'))).toBe(false);
    expect(queued.released).toEqual([]);
    expect(queued.failures).toHaveLength(1);
    atOnce.spill.close();
    queued.spill.close();
  });
});
