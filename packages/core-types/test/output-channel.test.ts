import { describe, expect, it, vi } from 'vitest';
import { OutputChannel } from '../src/index.js';

describe('OutputChannel', () => {
  it('holds output until the first listener, then hands it over after on() returns', async () => {
    const channel = new OutputChannel();
    channel.emit('a');
    channel.emit('');
    channel.emit('b');
    const seen: string[] = [];
    channel.on((chunk) => seen.push(chunk));
    expect(seen).toEqual([]);
    channel.emit('c');
    await Promise.resolve();
    expect(seen).toEqual(['abc']);
    channel.emit('d');
    expect(seen).toEqual(['abc', 'd']);
  });

  it('keeps held output for the next listener when the first left before it was handed over', async () => {
    const channel = new OutputChannel();
    channel.emit('kept');
    const off = channel.on(() => {
      throw new Error('never called');
    });
    off();
    await Promise.resolve();
    const seen: string[] = [];
    channel.on((chunk) => seen.push(chunk));
    await Promise.resolve();
    expect(seen).toEqual(['kept']);
  });

  it('delivers to a listener added twice twice, and to later listeners only what is new', async () => {
    const channel = new OutputChannel();
    const seen: string[] = [];
    const listener = (chunk: string) => seen.push(chunk);
    channel.on(listener);
    channel.on(listener);
    await Promise.resolve();
    channel.emit('x');
    expect(seen).toEqual(['x', 'x']);
  });

  it('keeps delivering to the others when a listener throws, and surfaces the error', async () => {
    const channel = new OutputChannel();
    const seen: string[] = [];
    channel.on(() => {
      throw new Error('listener bug');
    });
    channel.on((chunk) => seen.push(chunk));
    await Promise.resolve();
    const thrown = vi.fn();
    const realQueue = globalThis.queueMicrotask;
    globalThis.queueMicrotask = (callback) => {
      try {
        callback();
      } catch (error) {
        thrown(error);
      }
    };
    try {
      channel.emit('y');
    } finally {
      globalThis.queueMicrotask = realQueue;
    }
    expect(seen).toEqual(['y']);
    expect(thrown).toHaveBeenCalledWith(new Error('listener bug'));
  });

  it('drops listeners and held output on dispose', async () => {
    const channel = new OutputChannel();
    channel.emit('held');
    const seen: string[] = [];
    channel.on((chunk) => seen.push(chunk));
    channel.dispose();
    await Promise.resolve();
    channel.emit('late');
    channel.on((chunk) => seen.push(chunk))();
    expect(seen).toEqual([]);
  });

  it("hands a chunk's bytes to listeners as given, and none for held chunks joined into one", async () => {
    const channel = new OutputChannel();
    channel.emit('held', Buffer.from('held'));
    const seen: [string, Uint8Array | undefined][] = [];
    channel.on((chunk, bytes) => seen.push([chunk, bytes]));
    await Promise.resolve();
    const live = Buffer.from('live');
    channel.emit('live', live);
    channel.emit('text only');
    expect(seen).toEqual([
      ['held', undefined],
      ['live', live],
      ['text only', undefined],
    ]);
    expect(seen[1]![1]).toBe(live);
  });
});
