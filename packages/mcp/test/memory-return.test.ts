import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryReturn, fullCollection } from '../src/memory-return.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('createMemoryReturn', () => {
  // Fake time: the once-a-second rule is checked by moving the clock, never by waiting on it.
  it('collects after a call in which sessions were pruned, only then, at most once a second', () => {
    vi.useFakeTimers({ now: 1_000_000 });
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
    vi.advanceTimersByTime(50);
    expect(collections).toBe(0);
    ids = ['c'];
    memory.afterCall();
    expect(collections).toBe(0); // later than the reply, never inside the call
    vi.advanceTimersByTime(50);
    expect(collections).toBe(1);
    ids = [];
    memory.afterCall(); // within the second: deferred, not dropped
    vi.advanceTimersByTime(900);
    expect(collections).toBe(1);
    vi.advanceTimersByTime(50);
    expect(collections).toBe(2);
  });

  it('reaches V8 full collection', () => {
    const collect = fullCollection();
    expect(typeof collect).toBe('function');
    expect(() => collect()).not.toThrow();
  });
});
