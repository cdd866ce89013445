import { describe, expect, it } from 'vitest';
import { createMemoryReturn, fullCollection } from '../src/memory-return.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('createMemoryReturn', () => {
  it('collects after a call in which sessions were pruned, only then, at most once a second', async () => {
    let ids = ['a', 'b'];
    let collections = 0;
    const memory = createMemoryReturn(
      () => ids,
      () => {
        collections += 1;
      },
    );
    ids = ['a', 'b', 'c'];
    memory.afterCall(); // a session started, none pruned
    await sleep(50);
    expect(collections).toBe(0);
    ids = ['c'];
    memory.afterCall();
    await sleep(50);
    expect(collections).toBe(1);
    ids = [];
    memory.afterCall(); // within the second: deferred, not dropped
    await sleep(50);
    expect(collections).toBe(1);
    await sleep(1_100);
    expect(collections).toBe(2);
  });

  it('reaches V8 full collection', () => {
    const collect = fullCollection();
    expect(typeof collect).toBe('function');
    expect(() => collect()).not.toThrow();
  });
});
