import { describe, expect, it } from 'vitest';
import { ParseQueue } from '../src/parse-queue.js';

function fakeParser() {
  const pending: { chunk: string; done: () => void }[] = [];
  const parsed: string[] = [];
  return {
    write: (chunk: string, done: () => void) => pending.push({ chunk, done }),
    inFlight: () => pending.map((p) => p.chunk),
    parseOne: () => {
      const next = pending.shift()!;
      parsed.push(next.chunk);
      next.done();
    },
    parsed,
  };
}

const settled = async (promise: Promise<unknown>) => {
  let state = 'pending';
  promise.then(
    () => {
      state = 'resolved';
    },
    () => {
      state = 'rejected';
    },
  );
  await new Promise((resolve) => setImmediate(resolve));
  return state;
};

describe('ParseQueue', () => {
  it('is idle at once when nothing is pending', async () => {
    const queue = new ParseQueue(fakeParser().write, 10);
    expect(await settled(queue.idle())).toBe('resolved');
  });

  it('resolves idle() only once every chunk accepted before it has been parsed', async () => {
    const parser = fakeParser();
    const queue = new ParseQueue(parser.write, 100);
    queue.push('a');
    queue.push('b');
    const idle = queue.idle();
    queue.push('c');
    parser.parseOne();
    expect(await settled(idle)).toBe('pending');
    parser.parseOne();
    expect(await settled(idle)).toBe('resolved');
    expect(await settled(queue.idle())).toBe('pending');
    parser.parseOne();
    expect(await settled(queue.idle())).toBe('resolved');
  });

  it('holds chunks back above the high-water mark and hands them on in order', async () => {
    const parser = fakeParser();
    const queue = new ParseQueue(parser.write, 5);
    for (const chunk of ['aaa', 'bb', 'cccc', 'dddddddd', 'e']) queue.push(chunk);
    expect(parser.inFlight()).toEqual(['aaa', 'bb']);
    expect(queue.backlogLength).toBe(3);
    const idle = queue.idle();
    parser.parseOne();
    expect(parser.inFlight()).toEqual(['bb']);
    parser.parseOne();
    // A chunk above the mark goes alone once nothing else is in flight.
    expect(parser.inFlight()).toEqual(['cccc']);
    expect(queue.backlogLength).toBe(2);
    parser.parseOne();
    expect(parser.inFlight()).toEqual(['dddddddd']);
    parser.parseOne();
    expect(parser.inFlight()).toEqual(['e']);
    expect(await settled(idle)).toBe('pending');
    parser.parseOne();
    expect(parser.parsed).toEqual(['aaa', 'bb', 'cccc', 'dddddddd', 'e']);
    expect(queue.backlogLength).toBe(0);
    expect(await settled(idle)).toBe('resolved');
  });

  it('says whether every chunk accepted so far has been parsed', () => {
    const parser = fakeParser();
    const queue = new ParseQueue(parser.write, 1);
    expect(queue.isIdle).toBe(true);
    queue.push('a');
    queue.push('b');
    expect(queue.isIdle).toBe(false);
    parser.parseOne();
    expect(queue.isIdle).toBe(false);
    parser.parseOne();
    expect(queue.isIdle).toBe(true);
  });

  it('rejects waiting and later idle() calls once closed, and ignores late parses', async () => {
    const parser = fakeParser();
    const queue = new ParseQueue(parser.write, 1);
    queue.push('a');
    queue.push('b');
    const idle = queue.idle();
    const reason = new Error('closed');
    queue.close(reason);
    queue.close(new Error('again'));
    await expect(idle).rejects.toBe(reason);
    await expect(queue.idle()).rejects.toBe(reason);
    parser.parseOne();
    expect(parser.inFlight()).toEqual([]);
    expect(queue.backlogLength).toBe(0);
  });
});
