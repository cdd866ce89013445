// The spill file's ring: a batch of queued blocks that reaches the ring's end exactly must not
// take the next block (which starts the ring's next lap) as a block "cut by the end" — its
// head would be empty and its tail (all of it) never written, so a page of it read the lap
// before. Found by the stress run: seq 1 1000000 paged back "1\n2\n3…" in the middle.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { testTmpdir } from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeSpillFileSystem, SpillFile, type SpillFileSystem } from '../../src/log/spill-file.js';
import { heldDisk } from './held-disk.js';

const dir = mkdtempSync(join(testTmpdir(), 'procmux-spill-ring-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function ring(capacity: number, fs: SpillFileSystem, queueBytes = 1 << 20) {
  return new SpillFile({
    dir,
    capacity,
    queueBytes,
    fs,
    release: () => {},
    onFailure: (error) => {
      throw error;
    },
  });
}

describe('the spill ring', () => {
  it('never writes a block left waiting after newer ones a lap ahead (a producer that never yields)', async () => {
    // As the thread pool does: the write lands at once, its callback waits for the event loop.
    const held: (() => void)[] = [];
    const fs: SpillFileSystem = {
      ...nodeSpillFileSystem,
      inline: false,
      writeAsync(fd, buffers, position, done) {
        let at = position;
        for (const buffer of buffers) at += nodeSpillFileSystem.write(fd, buffer, at);
        held.push(() => done(null, at - position));
      },
    };
    // 4 bytes in flight and 8 waiting fill the queue; every later block finds it full.
    const file = ring(16, fs, 12);
    let written = '';
    for (let at = 0; at < 48; at += 4) {
      const block = String.fromCharCode(65 + at / 4).repeat(4);
      file.enqueue(at, Buffer.from(block));
      written += block;
    }
    while (held.length > 0) held.shift()!();
    await file.idle();
    // The last lap of the ring holds the newest 16 bytes, not the blocks that waited at 4-12.
    expect(file.read(32, 48).toString()).toBe(written.slice(32, 48));
    file.close();
  });

  it('keeps newer bytes over the ring part of a write in flight, before and after it lands and completes', async () => {
    // A write that lands only when told, and completes (its callback) only when told after.
    let land: (() => void) | undefined;
    let complete: (() => void) | undefined;
    const fs: SpillFileSystem = {
      ...nodeSpillFileSystem,
      inline: false,
      writeAsync(fd, buffers, position, done) {
        land = () => {
          let at = position;
          for (const buffer of buffers) at += nodeSpillFileSystem.write(fd, buffer, at);
          complete = () => done(null, at - position);
        };
      },
    };
    const file = ring(16, fs, 4);
    file.enqueue(0, Buffer.from('AAAA')); // in flight
    for (const [at, block] of [
      [4, 'BBBB'],
      [8, 'CCCC'],
      [12, 'DDDD'],
      [16, 'EEEE'],
      [20, 'FF'],
    ] as const)
      file.enqueue(at, Buffer.from(block)); // written at once, the last two a lap over it
    expect(file.read(6, 22).toString()).toBe('BBCCCCDDDDEEEEFF');
    land!();
    // On disk 'AAAA' now lies over 'EEEE': the newer bytes still read back.
    expect(file.read(6, 22).toString()).toBe('BBCCCCDDDDEEEEFF');
    complete!();
    await file.idle();
    expect(file.queuedBytes).toBe(0);
    expect(file.read(6, 22).toString()).toBe('BBCCCCDDDDEEEEFF');
    file.close();
  });

  it('puts a wrapped block tail written at completion under newer bytes a lap ahead, not over them', async () => {
    const writes: { land: () => void; complete: () => void }[] = [];
    const fs: SpillFileSystem = {
      ...nodeSpillFileSystem,
      inline: false,
      writeAsync(fd, buffers, position, done) {
        let at = position;
        writes.push({
          land: () => {
            for (const buffer of buffers) at += nodeSpillFileSystem.write(fd, buffer, at);
          },
          complete: () => done(null, at - position),
        });
      },
    };
    const file = ring(10, fs, 12);
    const next = async () => {
      const write = writes.shift()!;
      write.land();
      write.complete();
      await Promise.resolve();
    };
    file.enqueue(0, Buffer.from('AAAAAA')); // in flight at 0-5
    file.enqueue(6, Buffer.from('BBBBBB')); // waits
    await next();
    // In flight now: 'BBBB' at 6-9; its tail 'BB' goes to 0-1 once that completes.
    file.enqueue(12, Buffer.from('CCCCCC')); // waits
    file.enqueue(18, Buffer.from('DDDDDD')); // 'CCCCCC' written at 2-7, over the flight's 6-7
    file.enqueue(24, Buffer.from('EEEEEE')); // 'DDDDDD' written at 8-9 and 0-3, over the rest and the tail's place
    expect(file.read(14, 24).toString()).toBe('CCCCDDDDDD');
    writes[0]!.land();
    expect(file.read(14, 24).toString()).toBe('CCCCDDDDDD');
    writes.shift()!.complete();
    await Promise.resolve();
    expect(file.read(14, 24).toString()).toBe('CCCCDDDDDD');
    while (writes.length > 0) await next();
    await file.idle();
    expect(file.queuedBytes).toBe(0);
    expect(file.read(20, 30).toString()).toBe('DDDDEEEEEE');
    file.close();
  });

  it('writes the block that starts the next lap when a batch ends exactly at the ring end', async () => {
    const { fs, held } = heldDisk();
    const file = ring(8, fs);
    // Block 1 is in flight; blocks 2 (ending at the ring's end) and 3 (the next lap) queue.
    file.enqueue(0, Buffer.from('AAAA'));
    file.enqueue(4, Buffer.from('BBBB'));
    file.enqueue(8, Buffer.from('CCCC'));
    while (held.length > 0) await held.shift()!();
    await file.idle();
    expect(file.queuedBytes).toBe(0);
    // Everything is on disk now: the third block overwrote the first in the ring.
    expect(file.read(4, 12).toString()).toBe('BBBBCCCC');
    file.close();
  });

  it('reads back the newest lap exactly whenever the write in flight lands and completes, the queue full or not', async () => {
    for (let seed = 1; seed <= 60; seed++) {
      let state = seed;
      const next = () => {
        state = (state * 1103515245 + 12345) & 0x7fffffff;
        return state;
      };
      // One write in flight at a time: it lands (its bytes reach the file) and later completes.
      let pending: { land: () => void; complete: () => void; landed: boolean } | undefined;
      const fs: SpillFileSystem = {
        ...nodeSpillFileSystem,
        inline: false,
        writeAsync(fd, buffers, position, done) {
          let at = position;
          const write = {
            landed: false,
            land: () => {
              for (const buffer of buffers) at += nodeSpillFileSystem.write(fd, buffer, at);
              write.landed = true;
            },
            complete: () => {
              pending = undefined;
              done(null, at - position);
            },
          };
          pending = write;
        },
      };
      const capacity = 24 + (next() % 40);
      const file = ring(capacity, fs, 4 + (next() % 20));
      let written = '';
      for (let round = 0; round < 150; round++) {
        const size = 1 + (next() % 12);
        const text = String.fromCharCode(97 + (round % 26)).repeat(size);
        file.enqueue(written.length, Buffer.from(text));
        written += text;
        const action = next() % 6;
        if (pending && !pending.landed && action === 1) pending.land();
        else if (pending && action === 2) {
          if (!pending.landed) pending.land();
          pending.complete();
          await Promise.resolve();
        }
        const from = Math.max(0, written.length - capacity);
        expect(file.read(from, written.length).toString(), `seed ${seed}, round ${round}`).toBe(
          written.slice(from),
        );
      }
      while (pending) {
        if (!pending.landed) pending.land();
        pending.complete();
        await Promise.resolve();
      }
      await file.idle();
      const from = Math.max(0, written.length - capacity);
      expect(file.read(from, written.length).toString(), `seed ${seed}, at the end`).toBe(
        written.slice(from),
      );
      file.close();
    }
  });

  it('reads back every offset of a long stream whatever the batching, against the bytes written', async () => {
    const { fs, held } = heldDisk();
    const capacity = 64;
    const file = ring(capacity, fs);
    let written = '';
    let seed = 3;
    const next = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    for (let round = 0; round < 200; round++) {
      // Blocks of 1 to 16 bytes, some rounds ending exactly on the ring's end.
      const size = written.length % 16 === 0 && next() % 2 === 0 ? 16 : 1 + (next() % 16);
      const text = String.fromCharCode(97 + (round % 26)).repeat(size);
      file.enqueue(written.length, Buffer.from(text));
      written += text;
      // Release a random number of writes, sometimes none (blocks keep queueing meanwhile).
      for (let n = next() % 3; n > 0 && held.length > 0; n--) await held.shift()!();
      const from = Math.max(0, written.length - capacity);
      expect(file.read(from, written.length).toString()).toBe(written.slice(from));
    }
    while (held.length > 0) await held.shift()!();
    await file.idle();
    const from = written.length - capacity;
    expect(file.read(from, written.length).toString()).toBe(written.slice(from));
    file.close();
  });
});
