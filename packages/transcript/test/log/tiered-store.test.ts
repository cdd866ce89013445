// The tiered store under the log: once history is discarded past where memory starts (the
// file's part all gone), the next block spilled starts the file's history afresh at its own
// offset, and reads and character cuts there come from what that block holds.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { testTmpdir } from '@procmux/test-utils';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { nodeSpillFileSystem } from '../../src/log/spill-file.js';
import { TieredStore } from '../../src/log/tiered-store.js';

const dir = mkdtempSync(join(testTmpdir(), 'procmux-tiered-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KiB = 1024;

describe('TieredStore', () => {
  it('starts the file afresh at the next spilled block once history was discarded past memory', async () => {
    // A 64 KiB window: 4 KiB blocks, a block goes to the file once memory holds over 32 KiB.
    const store = new TieredStore({
      memoryBytes: 64 * KiB,
      retainedBytes: 1024 * KiB,
      dir,
      fs: nodeSpillFileSystem,
    });
    onTestFinished(async () => {
      store.close();
      await store.idle();
    });
    for (let i = 0; i < 12; i++) store.append(String.fromCharCode(97 + i).repeat(4 * KiB));
    expect(store.diskEnd).toBeGreaterThan(0);
    expect(store.start).toBe(0);
    // Everything in the file and the two oldest blocks in memory are discarded.
    const cut = store.memoryStart + 8 * KiB;
    store.discardBefore(cut);
    expect(store.start).toBe(cut);
    // Then three-byte characters, 4,095 bytes to a block, until they spill too; given as bytes
    // with nothing said about them, they are not taken for ASCII.
    for (let i = 0; i < 12; i++) store.appendBytes(Buffer.from('€'.repeat(1365)));
    expect(store.diskEnd).toBeGreaterThan(cut);
    expect(store.start).toBe(cut);
    expect(store.decode(cut, cut + 6)).toBe(String.fromCharCode(97 + ((cut / (4 * KiB)) % 26)).repeat(6));
    // A cut inside a character in the new file's part moves on to the next one.
    const euros = 12 * 4 * KiB;
    expect(store.memoryStart).toBeGreaterThan(euros + 3);
    expect(store.ceil(euros + 1)).toBe(euros + 3);
  });
});
