import { propertyRuns } from '@procmux/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteStore, isContinuation } from '../../src/log/byte-store.js';

// 'a' (1 byte) 'é' (2) '€' (3) '😀' (4, two UTF-16 units) 'b' (1): 11 bytes.
const MIXED = 'aé€😀b';
const MIXED_BYTES = 11;

function storeOf(text: string, sizes = { minBlockBytes: 4, maxBlockBytes: 8 }): ByteStore {
  const store = new ByteStore(sizes);
  store.append(text);
  return store;
}

describe('ByteStore boundaries', () => {
  it('rounds every offset up to the next character boundary', () => {
    const store = storeOf(MIXED);
    const expected = [0, 1, 3, 3, 6, 6, 6, 10, 10, 10, 10, 11];
    for (let offset = 0; offset <= MIXED_BYTES; offset++) expect(store.ceil(offset)).toBe(expected[offset]);
  });

  it('rounds every offset down to a character boundary, never below the floor given', () => {
    const store = storeOf(MIXED);
    const expected = [0, 1, 1, 3, 3, 3, 6, 6, 6, 6, 10, 11];
    for (let offset = 0; offset <= MIXED_BYTES; offset++)
      expect(store.floor(offset, 0)).toBe(expected[offset]);
    expect(store.floor(8, 7)).toBe(7);
  });

  it('tells continuation bytes from first bytes', () => {
    const bytes = Buffer.from('é😀');
    expect([...bytes].map(isContinuation)).toEqual([false, true, false, true, true, true]);
  });
});

describe('ByteStore storage', () => {
  it('encodes a chunk straight into a block with room and reports its UTF-8 size', () => {
    const store = new ByteStore({ minBlockBytes: 64, maxBlockBytes: 64 });
    expect(store.append('hi é')).toBe(5);
    expect(store.append('😀')).toBe(4);
    expect(store.end).toBe(9);
    expect(store.decode(0, 9)).toBe('hi é😀');
    expect(store.decode(3, 5)).toBe('é');
    expect(store.decode(4, 4)).toBe('');
  });

  it('splits a chunk across blocks only between characters', () => {
    // Blocks below 4 bytes are raised to 4: a block holds at least one character of any size.
    const store = new ByteStore({ minBlockBytes: 1, maxBlockBytes: 1 });
    expect(store.append('a😀€é')).toBe(1 + 4 + 3 + 2);
    expect(store.decode(0, 10)).toBe('a😀€é');
    for (let offset = 0; offset < 10; offset++) {
      expect(store.byteAt(offset)).toBe(Buffer.from('a😀€é')[offset]);
    }
  });

  it('frees whole blocks before an offset and keeps the newest one to write into', () => {
    const store = new ByteStore({ minBlockBytes: 4, maxBlockBytes: 4 });
    store.append('abcdefghij'); // blocks [0,4) [4,8) [8,10)
    store.discardBefore(3);
    expect(store.start).toBe(0);
    store.discardBefore(4); // the first block ends exactly at 4
    expect(store.start).toBe(4);
    store.discardBefore(5);
    expect(store.start).toBe(4);
    expect(store.decode(5, 10)).toBe('fghij');
    store.discardBefore(100);
    expect(store.start).toBe(8);
    store.append('k');
    expect(store.decode(8, 11)).toBe('ijk');
  });

  it('continues at a later offset after skipping, holding nothing before it', () => {
    const store = new ByteStore({ minBlockBytes: 4, maxBlockBytes: 8 });
    store.append('abcdef');
    store.skipTo(20);
    expect(store.start).toBe(20);
    expect(store.end).toBe(20);
    store.appendBytes(Buffer.from('xyz'));
    expect(store.decode(20, 23)).toBe('xyz');
    const empty = new ByteStore({ minBlockBytes: 4, maxBlockBytes: 8 });
    empty.skipTo(7);
    expect(empty.start).toBe(7);
  });

  it('reuses a discarded full-size block instead of allocating another', () => {
    const store = new ByteStore({ minBlockBytes: 8, maxBlockBytes: 8 });
    store.append('01234567'); // fills block 1
    store.append('89abcdef'); // block 2
    store.discardBefore(8); // block 1 becomes the spare
    store.append('ghijklmn'); // block 3: the spare, rewritten
    expect(store.decode(8, 24)).toBe('89abcdefghijklmn');
  });

  it('keeps up to two discarded blocks as spares, and none once dropSpares() was called', () => {
    const store = new ByteStore({ minBlockBytes: 8, maxBlockBytes: 8 });
    store.append('0123456789abcdefghijklmnopqrstuvwxyz'); // five blocks
    store.discardBefore(24);
    expect(store.spareBytes).toBe(16);
    store.dropSpares();
    expect(store.spareBytes).toBe(0);
    store.discardBefore(32);
    let handed: Buffer | undefined;
    store.append('ABCDEFGH');
    store.dropOldest((_, bytes) => {
      handed = bytes;
      return true;
    });
    store.reuse(handed!);
    expect(store.spareBytes).toBe(0);
    // Writing goes on in fresh blocks, every byte in place.
    store.append('IJKLMNOP');
    expect(store.start).toBe(40);
    expect(store.decode(40, store.end)).toBe('EFGHIJKLMNOP');
  });

  it('rounds the end itself to the end, whatever a reused block holds past it', () => {
    // The first block, full of 'é' bytes, is discarded and reused for 'x': the bytes just past
    // the end are leftovers of 'é' (a continuation byte first).
    const store = new ByteStore({ minBlockBytes: 8, maxBlockBytes: 8 });
    store.append('éééé');
    store.append('abcdefgh');
    store.discardBefore(8);
    store.append('x');
    expect(store.end).toBe(17);
    expect(store.floor(17, 0)).toBe(17);
    expect(store.ceil(17)).toBe(17);
    expect(store.decode(8, 17)).toBe('abcdefghx');
  });

  it('grows blocks with the bytes held, up to the largest size', () => {
    const store = new ByteStore({ minBlockBytes: 4, maxBlockBytes: 16 });
    for (let i = 0; i < 20; i++) store.append('0123456789');
    expect(store.decode(0, 200)).toBe('0123456789'.repeat(20));
    expect(store.byteAt(199)).toBe('9'.charCodeAt(0));
  });

  it('stores long chunks (measured first) exactly: ASCII copied, anything else encoded, in or across blocks', () => {
    // 'Ł' is U+0141: copied as Latin-1 it would become 'A' (0x41), a byte that passes any ASCII
    // check made on the bytes; the chunk must be encoded.
    const unit = fc.constantFrom('a', '\n', 'x', 'é', 'Ł', '€', '😀');
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.integer({ min: 1024, max: 5000 }).map((n) => 'y'.repeat(n)),
            fc.tuple(fc.integer({ min: 1024, max: 3000 }), unit).map(([n, c]) => 'z'.repeat(n) + c),
            fc.string({ unit, minLength: 1, maxLength: 30 }),
          ),
          { minLength: 1, maxLength: 8 },
        ),
        fc.integer({ min: 4, max: 6000 }),
        (chunks, maxBlockBytes) => {
          const store = new ByteStore({ minBlockBytes: 4, maxBlockBytes });
          for (const chunk of chunks) expect(store.append(chunk)).toBe(Buffer.byteLength(chunk));
          const all = Buffer.from(chunks.join(''));
          expect(store.end).toBe(all.length);
          expect(store.decode(0, all.length)).toBe(chunks.join(''));
        },
      ),
      { numRuns: propertyRuns(200) },
    );
    const store = new ByteStore({ minBlockBytes: 8192, maxBlockBytes: 8192 });
    const polish = `${'a'.repeat(2000)}Ł`;
    expect(store.append(polish)).toBe(2002);
    expect(store.decode(0, 2002)).toBe(polish);
  });

  it('keeps every byte addressable through any mix of chunk and block sizes', () => {
    const character = fc.constantFrom('a', '\n', 'é', '€', '中', '😀', '\u001b');
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: character, minLength: 1, maxLength: 20 }), { maxLength: 30 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 200 }),
        (chunks, a, b, discard) => {
          const store = new ByteStore({ minBlockBytes: Math.min(a, b), maxBlockBytes: Math.max(a, b) });
          for (const chunk of chunks) expect(store.append(chunk)).toBe(Buffer.byteLength(chunk));
          const all = Buffer.from(chunks.join(''));
          expect(store.end).toBe(all.length);
          const from = store.ceil(Math.min(discard, all.length));
          store.discardBefore(from);
          expect(store.start).toBeLessThanOrEqual(from);
          expect(store.decode(from, all.length)).toBe(all.subarray(from).toString());
          for (let offset = from; offset < all.length; offset++)
            expect(store.byteAt(offset)).toBe(all[offset]);
        },
      ),
      { numRuns: propertyRuns(300) },
    );
  });
});
